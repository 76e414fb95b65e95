import {boolean, nullable, object, optional, string, type Infer} from '../shape.js'
import {answer} from '../vm/tapir-answers.js'
import {done, snapshotAsked} from './action-report.js'
import {NO_SNAPSHOT, sent, SNAPSHOT_MODE} from './dusk/facts.js'
import {extensionVerb} from './extension-verb.js'
import {gateChecks, includeSnapshot, ref, snapshotMode} from './params.js'
import type {Param, Verb} from './types.js'

const textRef = () => ({
  ...ref('Ref of the text field (eN from tapir:snap, or a qN handle).'),
  missing: 'Missing --ref=<eN|qN>. Run tapir:snap first to obtain refs.',
})
const text = (description: string): Param<'text', 'string'> & {required: true} => ({
  name: 'text',
  type: 'string',
  required: true,
  allowEmpty: true,
  description,
  brief: 'Replaces the content; "" clears.',
  missing: 'Missing --text=<value>. Provide the text to enter ("" clears).',
})

/** The `text` effect block: what the field holds after the settle. */
const textEffect = optional(object({kind: optional(string), verified: optional(boolean), value: optional(nullable(string))}))
const textAnswer = answer({ref: optional(string), text: optional(string), effect: textEffect})

/** The field may keep something other than what was sent (a formatter, a reverting parent). */
function unverified({effect}: Infer<typeof textAnswer>): string[] {
  return effect?.verified === false
    ? [`⚠ The field holds ${JSON.stringify(effect.value ?? null)} after the settle, not the text sent.`]
    : []
}

/** What type, fill and clear share: they write a text field, and the app reads it back. */
const writesText = {kind: 'set', result: textAnswer, prefersJson: snapshotAsked} satisfies Partial<Verb>

export const type = extensionVerb({
  name: 'type',
  tool: 'tapir_type',
  title: 'Type text',
  summary: 'Type text into a text field by ref, replacing what it held, so onChanged and validators run.',
  example: '--ref=e2 --text=hello@example.com',
  exampleBefore: ['tapir tapir:snap --interactiveOnly'],
  ...writesText,
  dusk: {
    on: 'driven',
    method: 'type',
    params: {ref: sent, text: sent, snapshot: SNAPSHOT_MODE, includeSnapshot: sent, checkStable: sent, checkReceivesEvents: sent},
    tool: {
      tool: 'dusk_type',
      summary: 'Put this text in a text field by ref, replacing what it held.',
      params: ['ref', 'text'],
      echoed: ['ref', 'text'],
    },
  },
  step: 'any',
  record: {as: 'step', secret: 'text'},
  params: [
    textRef(),
    text('Text to enter; replaces the current content ("" clears).'),
    snapshotMode(),
    includeSnapshot(true),
    ...gateChecks(),
  ],
  report: (result, input) => done(`Typed into ${input.ref}`, unverified(result)),
})

export const fill = extensionVerb({
  name: 'fill',
  tool: 'tapir_fill',
  title: 'Fill a text field',
  summary: 'Fill a text field in one call (focus, clear, type, settle).',
  example: '--ref=e2 --text=alice@example.com',
  exampleBefore: ['tapir tapir:snap --interactiveOnly'],
  ...writesText,
  dusk: {on: 'refused'},
  step: 'any',
  record: {as: 'step', secret: 'text'},
  params: [textRef(), text('Value to set; replaces the content ("" clears).'), includeSnapshot(true), ...gateChecks(), snapshotMode()],
  report: (result, input) => done(`Filled ${input.ref}`, unverified(result)),
})

export const clear = extensionVerb({
  name: 'clear',
  tool: 'tapir_clear',
  title: 'Clear a text field',
  summary: 'Empty a text field by ref.',
  example: '--ref=e2',
  exampleBefore: ['tapir tapir:snap --interactiveOnly'],
  ...writesText,
  dusk: {
    on: 'driven',
    method: 'clear',
    params: {ref: sent, includeSnapshot: sent},
    tool: {tool: 'dusk_clear', summary: 'Empty a text field by ref.', params: ['ref', NO_SNAPSHOT], echoed: ['ref']},
  },
  step: 'any',
  record: {as: 'step'},
  params: [textRef(), includeSnapshot(false)],
  report: (result, input) => done(`Cleared ${input.ref}`, unverified(result)),
})

export const focus = extensionVerb({
  name: 'focus',
  tool: 'tapir_focus',
  title: 'Focus a widget',
  summary: 'Give keyboard focus to a widget by ref (its nearest Focus ancestor).',
  example: '--ref=e2',
  exampleBefore: ['tapir tapir:snap --interactiveOnly'],
  kind: 'set',
  dusk: {
    on: 'driven',
    method: 'focus',
    params: {ref: sent, includeSnapshot: sent},
    tool: {tool: 'dusk_focus', summary: 'Give keyboard focus to a widget by ref.', params: ['ref', NO_SNAPSHOT], echoed: ['ref']},
  },
  step: 'any',
  record: {as: 'step'},
  params: [ref(), includeSnapshot(false)],
  result: answer({ref: optional(string), focused: optional(boolean)}),
  prefersJson: snapshotAsked,
  report: (_result, input) => done(`Focused ${input.ref}`),
})

export const blur = extensionVerb({
  name: 'blur',
  tool: 'tapir_blur',
  title: 'Remove focus',
  summary: 'Take keyboard focus away from whatever holds it.',
  kind: 'set',
  dusk: {
    on: 'driven',
    method: 'blur',
    params: {includeSnapshot: sent},
    tool: {
      tool: 'dusk_blur',
      summary: 'Take keyboard focus away from whichever widget holds it; hadFocus says whether any did.',
      params: [NO_SNAPSHOT],
    },
  },
  step: 'any',
  record: {as: 'step'},
  params: [includeSnapshot(false)],
  result: answer({blurred: optional(boolean), hadFocus: optional(boolean)}),
  prefersJson: snapshotAsked,
  report: (result) => done(result.hadFocus === false ? 'Nothing had focus' : 'Blurred the focused widget'),
})

export const pressKey = extensionVerb({
  name: 'press_key',
  tool: 'tapir_press_key',
  title: 'Press a key',
  summary: 'Press a key (Enter, Escape, Tab, ArrowDown, a letter or digit), optionally with modifiers held.',
  example: '--key=S --modifiers=control',
  kind: 'action',
  dusk: {
    on: 'driven',
    method: 'press_key',
    params: {key: sent, modifiers: sent, snapshot: SNAPSHOT_MODE, includeSnapshot: sent},
    tool: {
      tool: 'dusk_press_key',
      summary: 'Press one key (Enter, Tab, Escape, an arrow, a letter), with control, shift, alt or meta held if asked.',
      params: ['key', ['modifiers', {options: ['control', 'shift', 'alt', 'meta']}]],
      echoed: ['key'],
    },
  },
  step: 'any',
  record: {as: 'step'},
  params: [
    {
      name: 'key',
      brief: 'Logical key (Enter, Escape, Tab, ArrowDown) or one character.',
      type: 'string',
      required: true,
      description: 'Logical key label (Enter, Escape, Tab, ArrowDown, ...) or one letter or digit.',
      missing: 'Missing --key=<name>.',
    },
    snapshotMode(),
    includeSnapshot(true),
    {
      name: 'modifiers',
      brief: 'Held keys: control, shift, alt, meta.',
      type: 'string[]',
      description: 'Keys held during the press, comma-separated: control (or ctrl), shift, alt, meta.',
    },
  ],
  result: answer({ok: optional(boolean), key: optional(string)}),
  prefersJson: snapshotAsked,
  report: (_result, input) => done(`Pressed ${[...(input.modifiers ?? []), input.key].join('+')}`),
})

export const textVerbs: Verb[] = [type, fill, clear, focus, blur, pressKey]
