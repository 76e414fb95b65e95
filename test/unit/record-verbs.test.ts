import {describe, expect, it} from 'vitest'
import {isRecorded, isSeen} from '../../src/lib/record/recorder.js'
import {VERBS, verbNamed} from '../../src/lib/verbs/index.js'

describe('which calls a recording keeps, from the catalogue', () => {
  it.each([
    'tap',
    'fill',
    'type',
    'clear',
    'scroll',
    'drag',
    'select_option',
    'set_checkbox',
    'press_key',
    'navigate',
    'navigate_back',
    'dismiss_modals',
    'wait',
    'wait_for_network_idle',
  ])('records %s', (name) => {
    expect(isRecorded(verbNamed(name)!)).toBe(true)
  })

  it.each(['snap', 'observe', 'find', 'console', 'screenshot', 'evaluate', 'get_routes', 'exceptions', 'resize', 'device'])(
    'does not record %s',
    (name) => {
      expect(isRecorded(verbNamed(name)!)).toBe(false)
    },
  )

  it('writes no step for a verb that cannot be a tapir:run step, and says so where it acts', () => {
    const offTheApp = VERBS.filter((verb) => verb.step === 'never')
    expect(offTheApp.map((verb) => verb.name).sort()).toEqual(['device', 'perf_campaign', 'perf_compare', 'resize'])
    for (const verb of offTheApp)
      expect(verb.record, verb.name).toEqual(verb.kind === 'read' ? {as: 'nothing'} : {as: 'comment', why: 'not a tapir:run step'})
  })

  it('keeps what snap, observe and find show, and looks at no other read', () => {
    const seenReads = VERBS.filter((verb) => verb.kind === 'read' && isSeen(verb)).map((verb) => verb.name)
    expect(seenReads.sort()).toEqual(['find', 'observe', 'snap', 'wait', 'wait_for_network_idle'])
    for (const name of ['find', 'observe', 'snap']) expect(VERBS.find((verb) => verb.name === name)?.record).toEqual({as: 'read'})
  })
})
