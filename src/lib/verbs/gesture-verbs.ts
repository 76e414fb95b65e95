import {boolean, object, optional, string} from '../shape.js'
import {MAX_TIMEOUT_MS} from '../vm/deadline.js'
import {tapUntilSlices} from '../vm/sliced-waits.js'
import {answer} from '../vm/tapir-answers.js'
import {done, snapshotAsked} from './action-report.js'
import {GATES, gatedClick, NO_SNAPSHOT, refused, sent, SNAPSHOT_MODE, tapir, type PointerParam} from './dusk/facts.js'
import {extensionVerb} from './extension-verb.js'
import {gateChecks, includeSnapshot, namedRef, pointerParams, snapshotMode} from './params.js'
import type {DuskFacts, Param, Verb} from './types.js'

/** How long tap --until waits unless told. */
const untilTimeoutMs = {
  name: 'untilTimeoutMs',
  type: 'integer',
  default: 3000,
  minimum: 0,
  maximum: MAX_TIMEOUT_MS,
  description: 'How long --until waits, in milliseconds.',
} as const satisfies Param

/** A pointer verb's answer: the ref it acted on. */
const pointerAnswer = answer({ref: optional(string)})

export const tap = extensionVerb({
  name: 'tap',
  tool: 'tapir_tap',
  title: 'Tap',
  summary: 'Tap a widget by ref, after the actionability gate; says whether the screen changed.',
  example: '--ref=e5',
  exampleBefore: ['tapir tapir:snap --interactiveOnly'],
  kind: 'action',
  dusk: {
    on: 'driven',
    method: 'tap',
    params: {
      ref: sent,
      snapshot: SNAPSHOT_MODE,
      includeSnapshot: sent,
      checkStable: sent,
      checkReceivesEvents: sent,
      retarget: refused,
      until: tapir('an ext.dusk.wait_for for that text after the tap, reported as untilMatched'),
      untilTimeoutMs: tapir('the timeoutMs of that wait_for'),
    },
    tool: {
      tool: 'dusk_tap',
      summary: 'Tap a widget by ref, once it passes the actionability checks.',
      params: ['ref'],
      echoed: ['ref'],
    },
  },
  step: 'any',
  record: {as: 'step', waitAfter: {text: 'until', timeoutMs: 'untilTimeoutMs'}},
  params: [
    ...pointerParams('full'),
    {
      name: 'retarget',
      brief: 'On a merged node, tap its one labelled control.',
      type: 'boolean',
      default: true,
      description: 'On a merged boundary, tap its one labelled control instead of the centre (--no-retarget taps the centre).',
    },
    {
      name: 'until',
      brief: 'Then wait for a Text with exactly this data.',
      type: 'string',
      description: 'After the tap, wait for a Text with exactly this data and report untilMatched.',
    },
    untilTimeoutMs,
  ],
  waitsMs: (input) => (typeof input.until === 'string' ? Number(input.untilTimeoutMs ?? untilTimeoutMs.default) : 0),
  slices: tapUntilSlices(untilTimeoutMs.default),
  result: answer({
    ref: optional(string),
    effect: optional(object({kind: optional(string), changed: optional(boolean)})),
    untilMatched: optional(boolean),
  }),
  report: (result, input) => done(`Tapped ${input.ref}${result.effect?.changed === false ? ' (no observable change)' : ''}`),
  prefersJson: (input) => snapshotAsked(input) || typeof input.until === 'string',
})

/** A pointer verb that only confirms it dispatched (hover, double, right and triple click). */
function pointerVerb(name: string, title: string, summary: string, doneWord: string, dusk: DuskFacts<PointerParam>) {
  return extensionVerb({
    name,
    tool: `tapir_${name}`,
    title,
    summary,
    example: '--ref=e5',
    exampleBefore: ['tapir tapir:snap --interactiveOnly'],
    kind: 'action',
    dusk,
    step: 'any',
    record: {as: 'step'},
    params: pointerParams(),
    result: pointerAnswer,
    prefersJson: snapshotAsked,
    report: (_result, input) => done(`${doneWord} ${input.ref}`),
  })
}

export const hover = pointerVerb(
  'hover',
  'Hover',
  'Move the mouse over a widget by ref, for hover effects and tooltips (no touch equivalent).',
  'Hovered',
  gatedClick('hover', {
    tool: 'dusk_hover',
    summary: 'Rest a mouse pointer on a widget by ref (hover effects, tooltips).',
    params: ['ref'],
    echoed: ['ref'],
  }),
)
export const dblclick = pointerVerb(
  'dblclick',
  'Double-click',
  'Double-click a widget by ref: two taps about 100 ms apart, gated once.',
  'Double-clicked',
  gatedClick('dblclick', {
    tool: 'dusk_dblclick',
    summary: 'Click twice in quick succession on a widget by ref; the actionability checks run once, before the first click.',
    params: ['ref'],
    echoed: ['ref'],
  }),
)
export const rightClick = pointerVerb(
  'right_click',
  'Right-click',
  'Right-click a widget by ref (secondary button), e.g. for a context menu.',
  'Right-clicked',
  gatedClick('right_click', {
    tool: 'dusk_right_click',
    summary: 'Click a widget by ref with the secondary mouse button, e.g. for a context menu.',
    params: ['ref', NO_SNAPSHOT, ...GATES],
    echoed: ['ref'],
  }),
)
export const tripleClick = pointerVerb(
  'triple_click',
  'Triple-click',
  'Click a widget three times by ref (selects a paragraph in a text field).',
  'Triple-clicked',
  gatedClick('triple_click', {
    tool: 'dusk_triple_click',
    summary: 'Click a widget by ref three times in a row, e.g. to select a paragraph.',
    params: ['ref', NO_SNAPSHOT, ...GATES],
    echoed: ['ref'],
  }),
)

export const drag = extensionVerb({
  name: 'drag',
  tool: 'tapir_drag',
  title: 'Drag and drop',
  summary: 'Drag from one widget to another by refs, through pointer moves.',
  example: '--startRef=e5 --endRef=e9',
  exampleBefore: ['tapir tapir:navigate --route=/monitors', 'tapir tapir:snap --interactiveOnly'],
  kind: 'action',
  dusk: {
    on: 'driven',
    method: 'drag',
    params: {startRef: sent, endRef: sent, snapshot: SNAPSHOT_MODE, includeSnapshot: sent, checkStable: sent, checkReceivesEvents: sent},
    tool: {
      tool: 'dusk_drag',
      summary: 'Drag from the widget at startRef and drop on the widget at endRef.',
      params: ['startRef', 'endRef'],
      echoed: ['startRef', 'endRef'],
    },
  },
  step: 'any',
  record: {as: 'step'},
  params: [
    namedRef('startRef', 'Ref of the widget to drag from (eN).'),
    namedRef('endRef', 'Ref of the widget to drop on (eN).'),
    snapshotMode(),
    includeSnapshot(true),
    ...gateChecks(),
  ],
  result: answer({startRef: optional(string), endRef: optional(string)}),
  prefersJson: snapshotAsked,
  report: (_result, input) => done(`Dragged ${input.startRef} to ${input.endRef}`),
})

export const gestureVerbs: Verb[] = [tap, hover, dblclick, rightClick, tripleClick, drag]
