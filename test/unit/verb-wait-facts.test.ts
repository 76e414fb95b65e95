import {describe, expect, it} from 'vitest'
import {tap} from '../../src/lib/verbs/gesture-verbs.js'
import {REF_PARAMS} from '../../src/lib/verbs/index.js'
import {defaultOf} from '../../src/lib/verbs/input.js'
import {wait, waitForNetworkIdle} from '../../src/lib/verbs/wait-verbs.js'

/** The `ext.tapir.*` method a verb calls, as its definition dispatches it. */
const ext = (verb: {dispatch: string}) => verb.dispatch.replace(/^ext\.tapir\./, '')

describe('facts read from the verb, not by its name', () => {
  it('each waiting verb says how it is sliced, with its own default wait', () => {
    const waiting = wait.slices?.(ext(wait), {text: 'Monitors'})
    expect(waiting?.totalMs).toBe(defaultOf(wait.params, 'timeoutMs'))
    expect(waiting?.first.ext).toBe('wait_for')
    const idle = waitForNetworkIdle.slices?.(ext(waitForNetworkIdle), {})
    expect([idle?.totalMs, idle?.first.ext]).toEqual([defaultOf(waitForNetworkIdle.params, 'timeoutMs'), 'wait_for_network_idle'])
    expect(waitForNetworkIdle.slices?.(ext(waitForNetworkIdle), {idleMs: '5000'})).toBeUndefined() // one slice must hold the idle window
    expect(tap.slices?.(ext(tap), {ref: 'e1'})).toBeUndefined()
    const until = tap.slices?.(ext(tap), {ref: 'e1', until: 'Done'})
    expect(until?.totalMs).toBe(defaultOf(tap.params, 'untilTimeoutMs'))
    expect([until?.first.ext, until?.next.ext]).toEqual(['tap', 'wait_for'])
  })

  it('the params that name a widget by ref are those the catalogue marks', () => {
    expect([...REF_PARAMS].toSorted()).toEqual(['endRef', 'ref', 'startRef', 'within'])
  })
})
