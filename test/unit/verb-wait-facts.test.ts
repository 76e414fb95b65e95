import {describe, expect, it} from 'vitest'
import {tap} from '../../src/lib/verbs/gesture-verbs.js'
import {REF_PARAMS} from '../../src/lib/verbs/index.js'
import {defaultOf} from '../../src/lib/verbs/input.js'
import {wait, waitForNetworkIdle} from '../../src/lib/verbs/wait-verbs.js'

describe('facts read from the verb, not by its name', () => {
  it('each waiting verb says how it is sliced, with its own default wait', () => {
    expect(wait.slices?.({text: 'Monitors'})?.totalMs).toBe(defaultOf(wait.params, 'timeoutMs'))
    expect(waitForNetworkIdle.slices?.({})?.totalMs).toBe(defaultOf(waitForNetworkIdle.params, 'timeoutMs'))
    expect(waitForNetworkIdle.slices?.({idleMs: '5000'})).toBeUndefined() // one slice must hold the idle window
    expect(tap.slices?.({ref: 'e1'})).toBeUndefined()
    const until = tap.slices?.({ref: 'e1', until: 'Done'})
    expect(until?.totalMs).toBe(defaultOf(tap.params, 'untilTimeoutMs'))
    expect([until?.first.ext, until?.next.ext]).toEqual(['tap', 'wait_for'])
  })

  it('the params that name a widget by ref are those the catalogue marks', () => {
    expect([...REF_PARAMS].toSorted()).toEqual(['endRef', 'ref', 'startRef'])
  })
})
