import {describe, expect, it} from 'vitest'
import {UsageError} from '../../src/lib/errors.js'
import {filterSnapshot} from '../../src/lib/verbs/dusk/snapshot-filter.js'
import {planDuskCall} from '../../src/lib/verbs/dusk/translate.js'
import {VERBS, verbNamed} from '../../src/lib/verbs/index.js'
import type {Input} from '../../src/lib/verbs/types.js'

/** The 28 of the 30 methods Dusk 0.0.1 registers that its tool reference dispatches to (find_by_text
 *  and find_by_label have no tool, and no tapir verb calls them). */
const DUSK_METHODS = [
  'blur', 'clear', 'close_app', 'console', 'dblclick', 'dismiss_modals', 'drag', 'evaluate', 'exceptions', 'find', 'focus',
  'get_routes', 'hover', 'navigate', 'navigate_back', 'observe', 'press_key', 'right_click', 'screenshot', 'scroll',
  'select_option', 'set_checkbox', 'snap', 'tap', 'triple_click', 'type', 'wait_for', 'wait_for_network_idle',
] // prettier-ignore

const plan = (verb: string, input: Input) => planDuskCall(verbNamed(verb)!, input)
const refusal = (verb: string, input: Input): string => {
  try {
    plan(verb, input)
  } catch (error) {
    expect(error).toBeInstanceOf(UsageError)
    return (error as UsageError).message
  }
  throw new Error(`${verb} was not refused`)
}

describe("each verb's Dusk 0.0.1 facts", () => {
  it('give a rule for every parameter of a driven verb, and no other', () => {
    for (const verb of VERBS) {
      const wire = verb.dusk
      if (wire.on !== 'driven') continue
      expect(Object.keys(wire.params).sort(), verb.name).toEqual(verb.params.map((param) => param.name).sort())
    }
  })

  it('drives exactly the 28 in-app methods of 0.0.1, each from one verb', () => {
    const driven = VERBS.flatMap(({dusk}) => (dusk.on === 'driven' ? [dusk.method] : []))
    expect(driven.sort()).toEqual([...DUSK_METHODS].sort())
  })
})

describe('planDuskCall: a tapir call as 0.0.1 takes it', () => {
  it('sends 0.0.1 parameters as strings and leaves out the defaults 0.0.1 lacks', () => {
    const tap = plan('tap', {
      ref: 'e5',
      includeSnapshot: false,
      checkStable: true,
      checkReceivesEvents: true,
      retarget: true,
      untilTimeoutMs: 3000,
    })
    expect(tap).toEqual({
      method: 'tap',
      params: {ref: 'e5', includeSnapshot: 'false', checkStable: 'true', checkReceivesEvents: 'true'},
      inTapir: {untilTimeoutMs: 3000},
    })
    expect(plan('drag', {startRef: 'e1', endRef: 'e2'}).params).toEqual({startRef: 'e1', endRef: 'e2'})
  })

  it("sends scroll's direction and pixels as a signed dy or dx, as Dusk's CLI does (dusk_scroll_command.dart)", () => {
    const scroll = (input: Input) => plan('scroll', {direction: 'down', pixels: 300, includeSnapshot: false, ...input}).params
    expect(scroll({ref: 'e5'})).toEqual({ref: 'e5', dy: '300', includeSnapshot: 'false'})
    expect(scroll({direction: 'up', pixels: 120})).toEqual({dy: '-120', includeSnapshot: 'false'})
    expect(scroll({direction: 'right'})).toEqual({dx: '300', includeSnapshot: 'false'})
    expect(scroll({direction: 'left', pixels: 40})).toEqual({dx: '-40', includeSnapshot: 'false'})
    // An explicit dy or dx wins, as in Dusk's CLI; intoView sends no delta.
    expect(scroll({dy: -80})).toEqual({dy: '-80', includeSnapshot: 'false'})
    expect(scroll({ref: 'e9', intoView: true})).toEqual({ref: 'e9', intoView: 'true', includeSnapshot: 'false'})
  })

  it('sends modifiers comma-separated, with 0.0.1 names (ctrl is control)', () => {
    expect(plan('press_key', {key: 'S', modifiers: ['ctrl', 'Shift']}).params).toEqual({key: 'S', modifiers: 'control,shift'})
  })

  it("sends wait's expression as 0.0.1's text (both match it as text), and refuses two conditions", () => {
    expect(plan('wait', {expression: 'Saved', timeoutMs: 5000}).params).toEqual({text: 'Saved', timeoutMs: '5000'})
    expect(refusal('wait', {text: 'a', textGone: 'b'})).toMatch(/Dusk 0\.0\.1, whose wait_for takes exactly one condition/)
  })

  it('keeps what tapir does itself out of the call', () => {
    expect(plan('snap', {interactiveOnly: true, grep: 'Sign', includeEnrichers: false, depth: 2})).toEqual({
      method: 'snap',
      params: {depth: '2'},
      inTapir: {interactiveOnly: true, grep: 'Sign'},
    })
    // With within, the depth is cut below the within node, so it is not sent.
    expect(plan('snap', {within: 'e4', depth: 1})).toMatchObject({params: {}, inTapir: {within: 'e4', depth: 1}})
    expect(plan('tap', {ref: 'e1', until: 'Done', untilTimeoutMs: 900}).inTapir).toEqual({until: 'Done', untilTimeoutMs: 900})
    expect(plan('exceptions', {limit: 5, since: '2026-01-01T00:00:00Z'})).toMatchObject({params: {limit: '5'}})
  })

  it('turns a snapshot mode into includeSnapshot where 0.0.1 has it, and refuses diff', () => {
    expect(plan('right_click', {ref: 'e1', snapshot: 'full', includeSnapshot: false}).params).toMatchObject({includeSnapshot: 'true'})
    expect(plan('clear', {ref: 'e1', includeSnapshot: true}).params).toEqual({ref: 'e1', includeSnapshot: 'true'})
    expect(refusal('tap', {ref: 'e1', snapshot: 'diff'})).toMatch(/^--snapshot=diff is not available: the app runs Dusk 0\.0\.1/)
  })

  it('refuses, naming it, a parameter 0.0.1 lacks given a value other than its default', () => {
    expect(refusal('find', {text: 'Email', within: 'e1'})).toBe(
      '--within is not available: the app runs Dusk 0.0.1, whose find has no such parameter. Leave it out, or move the app to tapir (see tapir doctor).',
    )
    expect(refusal('tap', {ref: 'e1', retarget: false})).toMatch(/^--retarget is not available/)
    expect(refusal('exceptions', {clear: true})).toMatch(/^--clear is not available/)
    expect(refusal('snap', {includeEnrichers: true})).toMatch(/^--includeEnrichers is not available/)
    expect(refusal('screenshot', {ref: 'e1', output: 'x.png'})).toMatch(/^--ref is not available/)
  })

  it('refuses a verb 0.0.1 lacks, naming it', () => {
    for (const verb of ['fill', 'reset_overlays', 'perf_begin', 'perf_end', 'perf_insight', 'perf_trace'])
      expect(refusal(verb, {})).toBe(
        `tapir:${verb} needs the tapir package, but the app runs Dusk 0.0.1, which has no such call. Move the app to tapir (see tapir doctor).`,
      )
  })
})

describe('filterSnapshot: snap parameters done in tapir', () => {
  const yaml = [
    '- heading "Monitors" [ref=e1]',
    '- text "Overview"',
    '  - button "API" [ref=e2]',
    '    tapOwner: {}',
    '  - textbox "Email": "ada@example.com" [ref=e3]',
    '    typeable: true',
    '- list "Rows" [ref=e4]',
    '  - button "Web" [ref=e5]',
    '    - text "deep"',
    '',
  ].join('\n')

  it('interactiveOnly drops lines without a ref and lifts their children', () => {
    expect(filterSnapshot(yaml, {interactiveOnly: true})).toBe(
      '- heading "Monitors" [ref=e1]\n- button "API" [ref=e2]\n  tapOwner: {}\n- textbox "Email": "ada@example.com" [ref=e3]\n  typeable: true\n- list "Rows" [ref=e4]\n  - button "Web" [ref=e5]\n',
    )
  })

  it('grep keeps nodes whose label or value match, with their ancestors; a bad pattern matches literally', () => {
    expect(filterSnapshot(yaml, {grep: 'ada@'})).toBe(
      '- text "Overview"\n  - textbox "Email": "ada@example.com" [ref=e3]\n    typeable: true\n',
    )
    expect(filterSnapshot(yaml, {grep: '^We'})).toBe('- list "Rows" [ref=e4]\n  - button "Web" [ref=e5]\n')
    expect(filterSnapshot('- text "a(b"\n- text "c"\n', {grep: 'a('})).toBe('- text "a(b"\n')
  })

  it('within keeps the subtree under the ref, depth counting from it; an unknown ref is an error', () => {
    expect(filterSnapshot(yaml, {within: 'e4'})).toBe('- list "Rows" [ref=e4]\n  - button "Web" [ref=e5]\n    - text "deep"\n')
    expect(filterSnapshot(yaml, {within: 'e4', depth: 1})).toBe('- list "Rows" [ref=e4]\n  - button "Web" [ref=e5]\n')
    expect(() => filterSnapshot(yaml, {within: 'e9'})).toThrow(/--within ref "e9" is not in the app's snapshot/)
  })

  it('reads nodes nested deeper than 512 levels as 512 deep (an answer is untrusted)', () => {
    const deep = Array.from({length: 600}, (_, i) => `${'  '.repeat(i)}- text "n${i}"`).join('\n')
    const lines = filterSnapshot(deep, {grep: 'n599'}).trimEnd().split('\n')
    expect(lines).toHaveLength(513) // the 512 ancestors kept by the match, then the match
    expect(lines.at(-1)).toBe(`${'  '.repeat(512)}- text "n599"`)
  })

  it('leaves the snapshot as the app sent it when nothing is asked', () => {
    expect(filterSnapshot(yaml, {})).toBe(yaml)
  })
})
