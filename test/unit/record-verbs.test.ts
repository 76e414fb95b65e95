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

  it('looks at finds, and at no other read', () => {
    const seenReads = VERBS.filter((verb) => verb.kind === 'read' && isSeen(verb)).map((verb) => verb.name)
    expect(seenReads.sort()).toEqual(['find', 'wait', 'wait_for_network_idle'])
  })
})
