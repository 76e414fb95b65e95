import {ParamError} from '../errors.js'
import {boolean, nullable, number, object, optional, string, type Infer} from '../shape.js'
import {answer} from '../vm/tapir-answers.js'
import {done, snapshotAsked} from './action-report.js'
import {DY_DX, INCLUDE_AFTER, sent, SNAPSHOT_MODE} from './dusk/facts.js'
import {extensionVerb} from './extension-verb.js'
import {toExtensionParams} from './input.js'
import {centreOffScreen, outsideViewport} from './off-screen.js'
import {placement} from './off-viewport.js'
import {includeSnapshot, ref, snapshotMode} from './params.js'
import type {Report, Verb} from './types.js'

const checkboxAnswer = answer({
  ref: optional(string),
  previousValue: optional(nullable(boolean)),
  value: optional(boolean),
  toggled: optional(boolean),
  /** The `checked` block: what the control reads after the tap (null while mixed). */
  effect: optional(object({verified: optional(boolean), before: optional(nullable(boolean)), after: optional(nullable(boolean))})),
})
type CheckboxAnswer = Infer<typeof checkboxAnswer>

const scrollAnswer = answer({
  scrolled: optional(boolean),
  finalOffset: optional(nullable(number)),
  direction: optional(string),
  pixels: optional(number),
  /** The `scrollOffset` block: the offset before and after. */
  // With intoView and no Scrollable around the ref nothing has an offset: both are null.
  effect: optional(object({changed: optional(boolean), before: optional(nullable(number)), after: optional(nullable(number))})),
  /** tapir's own, after intoView: whether the ref now is in the viewport, and if not where. */
  inViewport: optional(boolean),
  outside: optional(object({side: string, gapPx: number, farPx: number})),
  note: optional(string),
})
type ScrollAnswer = Infer<typeof scrollAnswer>

export const scroll = extensionVerb({
  name: 'scroll',
  tool: 'tapir_scroll',
  title: 'Scroll',
  summary: 'Scroll the Scrollable around a ref (or the first one) by a delta, or bring the ref into view.',
  example: '--ref=e5 --direction=down --pixels=500',
  exampleBefore: ['tapir tapir:navigate --route=/monitors', 'tapir tapir:snap --interactiveOnly'],
  kind: 'action',
  dusk: {
    on: 'driven',
    method: 'scroll',
    note: 'without a ref, 0.0.1 scrolls the first Scrollable',
    params: {
      ref: sent,
      direction: DY_DX,
      pixels: DY_DX,
      dx: sent,
      dy: sent,
      intoView: sent,
      snapshot: SNAPSHOT_MODE,
      includeSnapshot: sent,
    },
    tool: {
      tool: 'dusk_scroll',
      summary: 'Scroll the list or page around a widget by ref, some pixels in one direction.',
      params: [['ref', {required: true}], 'direction', 'pixels'],
      echoed: ['ref', 'direction', 'pixels'],
    },
  },
  step: 'any',
  record: {as: 'step'},
  params: [
    {...ref('Ref of a widget inside the Scrollable (eN); without it the first Scrollable is used.'), required: false},
    {name: 'direction', type: 'string', default: 'down', options: ['up', 'down', 'left', 'right'], description: 'Which way to scroll.'},
    {name: 'pixels', type: 'number', default: 300, description: 'How far, in logical pixels.'},
    {
      name: 'dx',
      brief: 'Horizontal delta; wins over direction and pixels.',
      type: 'number',
      description: 'Horizontal delta in logical pixels (positive is right); wins over direction and pixels.',
    },
    {
      name: 'dy',
      brief: 'Vertical delta; wins over direction and pixels.',
      type: 'number',
      description: 'Vertical delta in logical pixels (positive is down); wins over direction and pixels.',
    },
    {
      name: 'intoView',
      brief: 'Bring the ref into view instead.',
      type: 'boolean',
      description: 'Bring the ref itself into view instead of scrolling by a delta.',
    },
    snapshotMode(),
    includeSnapshot(true),
  ],
  validate(input) {
    if (input.intoView === true && !input.ref)
      throw new ParamError((name) => `${name('intoView')} brings a widget into view, so it needs ${name('ref')} (an eN ref).`)
  },
  result: scrollAnswer,
  // intoView is checked, not taken on trust: a scroll can move and still leave the widget out
  // (scrolled along y while it lies past the right edge).
  async execute(call, input): Promise<ScrollAnswer> {
    const app = await call.app()
    const result = await app.callExtension('scroll', toExtensionParams(scroll.params, input), scrollAnswer, call.deadline)
    if (input.intoView !== true || !input.ref || (await app.appPackage(call.deadline)) !== 'tapir') return result
    const where = await outsideViewport(app, input.ref, call.deadline)
    if (where === undefined) return result
    if (where === null) return {...result, inViewport: true}
    return {
      ...result,
      inViewport: false,
      outside: {side: where.side, gapPx: where.gapPx, farPx: where.farPx},
      note: `${placement(input.ref, where)} after the scroll: no Scrollable around it brings it in along ${where.side === 'left' || where.side === 'right' ? 'x' : 'y'}.`,
    }
  },
  failed: (result) => result.inViewport === false,
  mcpIsError: (result) => result.inViewport === false,
  prefersJson: snapshotAsked,
  report: (result, input) => {
    if (result.inViewport === false) return {stderr: [`✗ ${result.note ?? `${input.ref} is still outside the viewport.`}`]}
    const target = input.ref ? ` around ${input.ref}` : ''
    if (result.scrolled === false) return done(`Nothing scrolled${target} (already at the edge, or no Scrollable around it)`)
    // Dusk 0.0.1 echoes the direction and pixels, and reports no offsets.
    if (result.effect === undefined && result.finalOffset === undefined && typeof result.pixels === 'number')
      return done(`Scrolled${target} ${String(result.direction ?? '')} ${result.pixels} px`.replace('  ', ' '))
    return done(`Scrolled${target} (offset ${result.effect?.before ?? '?'} → ${result.effect?.after ?? result.finalOffset ?? '?'})`)
  },
})

export const selectOption = extensionVerb({
  name: 'select_option',
  tool: 'tapir_select_option',
  title: 'Select a dropdown option',
  summary: "Set a dropdown's value by ref through its onChanged; nothing is opened or tapped.",
  example: '--ref=e4 --value=us',
  exampleBefore: ['tapir tapir:navigate --route=/settings', 'tapir tapir:snap --interactiveOnly'],
  kind: 'set',
  dusk: {
    on: 'driven',
    method: 'select_option',
    params: {ref: sent, value: sent},
    tool: {
      tool: 'dusk_select_option',
      summary: 'Open a dropdown by ref and pick the item with this label or value.',
      params: ['ref', 'value'],
      echoed: ['ref', 'value'],
    },
  },
  step: 'any',
  record: {as: 'step'},
  params: [
    ref('Ref of the dropdown, or of a widget around it (eN).'),
    {
      name: 'value',
      brief: 'The value handed to onChanged.',
      type: 'string',
      required: true,
      description: 'The value handed to onChanged.',
      missing: 'Missing --value=<string>.',
    },
  ],
  result: answer({
    selected: optional(boolean),
    value: optional(string),
    /** The `selected` block: what the dropdown holds after the settle. */
    effect: optional(object({verified: optional(boolean), value: optional(nullable(string))})),
  }),
  report: ({effect}, input): Report => {
    if (effect?.verified !== false) return done(`Selected ${JSON.stringify(input.value)} on ${input.ref}`)
    return done(`Sent ${JSON.stringify(input.value)} to ${input.ref}`, [
      `⚠ The dropdown holds ${JSON.stringify(effect.value ?? null)} after the settle: its parent did not take the change.`,
    ])
  },
})

const unverifiedCheckbox = (result: CheckboxAnswer) => result.effect?.verified === false
/** Unverified results whose control's centre the geometry puts off screen: only those get the scroll hint. */
const offScreen = new WeakSet<CheckboxAnswer>()

export const setCheckbox = extensionVerb({
  name: 'set_checkbox',
  tool: 'tapir_set_checkbox',
  title: 'Set a checkbox',
  summary: 'Set a checkbox, switch or radio, tapping only if needed; effect.verified says if it took.',
  cliExit: 'exits 1 when it did not take (0 with --json or --includeSnapshot)',
  example: '--ref=e2 --value=true',
  exampleBefore: ['tapir tapir:navigate --route=/settings', 'tapir tapir:snap --interactiveOnly'],
  kind: 'set',
  dusk: {
    on: 'driven',
    method: 'set_checkbox',
    params: {ref: sent, value: sent, includeSnapshot: INCLUDE_AFTER},
    tool: {
      tool: 'dusk_set_checkbox',
      summary: 'Make a checkbox or switch by ref checked ("true") or not ("false"), touching it only when needed.',
      params: ['ref', 'value'],
      echoed: ['ref', 'value'],
    },
  },
  step: 'any',
  record: {as: 'step'},
  params: [
    ref('Ref (eN) of the checkbox, switch or radio, or of a node around or above one.'),
    {
      name: 'value',
      type: 'string',
      required: true,
      options: ['true', 'false'],
      description: 'The state wanted: "true" or "false".',
      missing: 'Provide --value as "true" or "false".',
    },
    // Not in the tool's schema, but always sent: the app's own default would attach a snapshot.
    {
      ...includeSnapshot(false),
      cliOnly: true,
      description: 'Return the snapshot after the tap; prints the response and exits 0 even when unverified.',
    },
  ],
  result: checkboxAnswer,
  async execute(call, input): Promise<CheckboxAnswer> {
    const app = await call.app()
    const result = await app.callExtension('set_checkbox', toExtensionParams(setCheckbox.params, input), checkboxAnswer, call.deadline)
    if (unverifiedCheckbox(result) && (await centreOffScreen(app, input.ref, call.deadline))) offScreen.add(result)
    return result
  },
  prefersJson: (input) => input.includeSnapshot === true,
  // Printed as the response (--json, --includeSnapshot), an unverified result exits 0, as the spec says.
  failed: (result, _input, printedJson) => unverifiedCheckbox(result) && !printedJson,
  report: (result, input): Report => {
    if (unverifiedCheckbox(result)) {
      const reading = `✗ ${input.ref} still reads ${JSON.stringify(result.effect?.after ?? null)} after the tap, not ${input.value}.`
      return {
        stderr: [
          offScreen.has(result)
            ? `${reading} It is off screen, so the tap missed it: scroll it into view with tapir:scroll, then retry.`
            : reading,
        ],
      }
    }
    return {
      stdout: result.toggled === false ? `✓ Checkbox ${input.ref} already ${input.value}` : `✓ Checkbox ${input.ref} set to ${input.value}`,
    }
  },
})

export const controlVerbs: Verb[] = [scroll, selectOption, setCheckbox]
