import {ParamError, TapirError} from '../errors.js'
import type {Input, Result, Verb, VerbCall} from '../verbs/types.js'
import type {AppConnection} from '../vm/app-connection.js'
import type {Deadline} from '../vm/deadline.js'
import {zeroInstallable} from '../vm/zero-install.js'
import {focusedText, pointerEventOf, pointerEvents, replaceFocusedText} from './dart.js'
import {ZERO_INSTALL_FORMS} from './forms.js'
import {
  appliedPredicate,
  centre,
  dumpText,
  liveNode,
  matchesOf,
  mintHandle,
  nodeFor,
  readTree,
  run,
  settled,
  tapAt,
  useHandles,
} from './live.js'
import {perfBegin, perfEnd, perfInsight} from './perf.js'
import {screenshotThroughInspector} from './screenshot.js'
import {allNodes, listedNodes, offscreen, refOf, renderSnapshot, roleOf, viewOf} from './snapshot.js'
import {consoleFromStreams, exceptionsFromStreams} from './streams.js'
import {waitForText} from './wait.js'

// Driving an app that runs no tapir package, through Flutter's own surface: the semantics dump
// for reading, `evaluate` of the Dart in dart.ts for acting. What has no zero-install form is
// refused in one line naming `tapir install`.

/** What a package-free app can be asked for: Flutter's semantics dump is registered. */
export async function drivesZeroInstall(app: AppConnection, deadline: Deadline): Promise<boolean> {
  // Within a restart's window the package may still be on its way: that answer stands.
  return !(await app.restarting(deadline)) && zeroInstallable(await app.extensionRPCs(deadline))
}

export async function runZeroInstall(verb: Verb, call: VerbCall, input: Input): Promise<Result> {
  useHandles(call.handleState?.())
  const app = await call.app()
  switch (verb.name) {
    case 'snap':
      return snap(app, call.deadline, input)
    case 'tap':
      return tap(app, call.deadline, input)
    case 'find':
      return find(app, call.deadline, input)
    case 'observe':
      return observe(app, call.deadline, input)
    case 'drag':
      return drag(app, call.deadline, input)
    case 'scroll':
      return scroll(app, call.deadline, input)
    case 'screenshot':
      return screenshotThroughInspector(app, call, input, () => readTree(app, call.deadline))
    case 'console':
      return consoleFromStreams(app, call.deadline, input)
    case 'exceptions':
      return exceptionsFromStreams(app, call.deadline, input)
    case 'perf_begin':
      return perfBegin(app, call, input)
    case 'perf_end':
      return perfEnd(app, call)
    case 'perf_insight':
      return perfInsight(call, input)
    case 'wait':
      return waitForText(() => readTree(app, call.deadline), input, call.deadline)
    case 'fill':
    case 'type':
    case 'clear':
      return writeText(app, call.deadline, input, verb.name === 'clear' ? '' : String(input.text ?? ''))
    default: {
      const form = ZERO_INSTALL_FORMS[verb.name]
      if (form !== undefined) return form(app, call.deadline, input)
      refuseZeroInstall(verb)
      throw new TapirError(
        (words) =>
          `${words.call(verb.name)} has no zero-install form yet (the app runs no tapir package; see docs/zero-install.md): run tapir install to add the package.`,
        'usage',
      )
    }
  }
}

/** Whether a verb has no honest zero-install form. */
export const refusedZeroInstall = (verb: Verb): boolean => ZERO_INSTALL_REFUSALS[verb.name] !== undefined

/** Refuses a verb that has no honest zero-install form, naming why; returns for any other. */
export function refuseZeroInstall(verb: Verb): void {
  const refusal = ZERO_INSTALL_REFUSALS[verb.name]
  if (refusal === undefined) return
  throw new TapirError(
    (words) => `${words.call(verb.name)} has no zero-install form: ${refusal}; run tapir install to add the package.`,
    'usage',
  )
}

/** Verbs with no honest zero-install form, and why (docs/zero-install.md says more). hot_reload_and_snap
 *  and expect are tapir's own verbs around the package's calls: they are refused before they begin
 *  (a reload the snap could not follow), as the package's verbs are. */
const ZERO_INSTALL_REFUSALS: Readonly<Record<string, string>> = {
  press_key:
    'Flutter offers no public call that delivers a key event to the focus tree (the engine sends key data to KeyEventManager, which pairs it with platform messages)',
  navigate: "a route name means something only to the app's own router, which the semantics tree does not show",
  get_routes: 'the semantics tree names no routes, and Flutter has no extension that lists them',
  dismiss_modals: 'the semantics tree does not tell a modal route from a page; navigate_back pops the route in front, one at a time',
  hot_reload_and_snap:
    "the reload goes through flutter run's service, but the snapshot, screenshot and exceptions after it are the package's: reload, then snap",
  expect: "it reads the app through the package's find, observe and get_routes; wait_for waits for a text",
  perf_trace:
    "Flutter.Frame events carry each frame's times but no spans to trace (perf_insight shows the worst frames of a timing session)",
}

async function snap(app: AppConnection, deadline: Deadline, input: Input): Promise<Result> {
  const root = await readTree(app, deadline)
  const within = typeof input.within === 'string' ? nodeFor(root, input.within) : undefined
  const snapshot = renderSnapshot(root, {
    ...(within ? {within} : {}),
    ...(typeof input.depth === 'number' ? {depth: input.depth} : {}),
    ...(input.interactiveOnly === true ? {interactiveOnly: true} : {}),
    ...(typeof input.grep === 'string' ? {grep: input.grep} : {}),
  })
  return {snapshot, zeroInstall: true}
}

/** The first node a predicate matches, as a qN handle: the predicate is kept (handles.ts) and run
 *  again over the tree on every use, as the package re-resolves its handles. */
async function find(app: AppConnection, deadline: Deadline, input: Input): Promise<Result> {
  if (typeof input.key === 'string')
    throw new TapirError(
      'find by key has no zero-install form: keys are not in the semantics tree; find by text, or run tapir install.',
      'usage',
    )
  // Only the predicate that applies is kept: the others given are ignored, as the package's are.
  // An empty one is not given, as toExtensionParams leaves it out of the package's call.
  const given = (name: 'text' | 'contains' | 'semanticsLabel' | 'within') => {
    const value = input[name]
    return typeof value === 'string' && value !== '' ? {[name]: value} : {}
  }
  const predicate = appliedPredicate({...given('text'), ...given('contains'), ...given('semanticsLabel'), ...given('within')})
  const matches = matchesOf(await readTree(app, deadline), predicate)
  if (matches.length === 0) return {matched: false, ref: null}
  return {matched: true, ref: await mintHandle(predicate), matchCount: matches.length}
}

/** The interactive nodes on screen, each with its eN, role and label. */
async function observe(app: AppConnection, deadline: Deadline, input: Input): Promise<Result> {
  const root = await readTree(app, deadline)
  const view = viewOf(root)
  const roles = typeof input.roles === 'string' ? new Set(input.roles.split(',').map((role) => role.trim())) : undefined
  const candidates = listedNodes(root)
    .filter((node) => !offscreen(node, view))
    .map((node) => ({node, role: roleOf(node)}))
    .filter(({role}) => role !== null && (roles === undefined || roles.has(role)))
    .slice(0, observeLimit(input.limit))
    .map(({node, role}) => ({ref: refOf(node), role: role ?? 'button', label: node.label}))
  return {candidates}
}

/** observe's limit: passed through as typed (a CLI's text, an MCP number), 50 when omitted as the
 *  package's observe takes it. */
function observeLimit(limit: unknown): number {
  if (limit === undefined) return 50
  const n = typeof limit === 'number' ? limit : typeof limit === 'string' && /^\d+$/.test(limit) ? Number(limit) : NaN
  if (!Number.isInteger(n) || n < 1)
    throw new ParamError((name) => `${name('limit')} must be a whole number of 1 or more (got ${JSON.stringify(limit)}).`)
  return n
}

/** A tap answers once its effect shows, or kDoubleTapTimeout has passed: a widget that also takes
 *  double taps gets the tap only then (gestures/multitap.dart). */
async function tap(app: AppConnection, deadline: Deadline, input: Input): Promise<Result> {
  const ref = String(input.ref ?? '')
  const node = await liveNode(app, deadline, ref)
  const before = await dumpText(app, deadline)
  await tapAt(app, deadline, node)
  await settled(app, deadline, before)
  return {ref}
}

/** A down on the start node, moves toward the end node, an up on it. */
async function drag(app: AppConnection, deadline: Deadline, input: Input): Promise<Result> {
  const from = centre(await liveNode(app, deadline, String(input.startRef ?? '')))
  const to = centre(await liveNode(app, deadline, String(input.endRef ?? '')))
  await swipe(app, deadline, from, to)
  return {startRef: input.startRef, endRef: input.endRef}
}

/** A finger drag inside the Scrollable: scrolling down moves the finger up. Whether it scrolled is
 *  read from where the ref's node is afterwards. */
async function scroll(app: AppConnection, deadline: Deadline, input: Input): Promise<Result> {
  if (input.intoView === true)
    throw new TapirError(
      'scroll into view has no zero-install form yet: scroll by a delta, or run tapir install to add the package.',
      'usage',
    )
  const pixels = Number(input.pixels ?? 300)
  const byDirection: Record<string, [number, number]> = {down: [0, pixels], up: [0, -pixels], right: [pixels, 0], left: [-pixels, 0]}
  const [dx, dy] =
    typeof input.dx === 'number' || typeof input.dy === 'number'
      ? [Number(input.dx ?? 0), Number(input.dy ?? 0)]
      : (byDirection[String(input.direction ?? 'down')] ?? [0, pixels])
  const ref = typeof input.ref === 'string' ? input.ref : undefined
  const root = await readTree(app, deadline)
  const before = ref === undefined ? undefined : await liveNode(app, deadline, ref)
  const view = viewOf(root)
  const from = before === undefined ? {x: view.width / 2, y: view.height / 2} : centre(before)
  await swipe(app, deadline, from, {x: from.x - dx, y: from.y - dy})
  const after = ref === undefined ? undefined : allNodes(await readTree(app, deadline)).find((node) => node.id === before?.id)
  const scrolled =
    before === undefined ? undefined : after === undefined || after.rect.top !== before.rect.top || after.rect.left !== before.rect.left
  return {...(scrolled === undefined ? {} : {scrolled}), direction: String(input.direction ?? 'down'), pixels}
}

/** Down, five moves, up, back to back in one evaluate (a compile between the down and the first
 *  move past kLongPressTimeout would make it a long press): gestures/events.dart PointerMoveEvent
 *  carries each step's delta. */
async function swipe(app: AppConnection, deadline: Deadline, from: {x: number; y: number}, to: {x: number; y: number}): Promise<void> {
  const STEPS = 5
  const step = {dx: (to.x - from.x) / STEPS, dy: (to.y - from.y) / STEPS}
  const moves = Array.from({length: STEPS}, (_, i) =>
    pointerEventOf('PointerMoveEvent', from.x + step.dx * (i + 1), from.y + step.dy * (i + 1), step),
  )
  await run(
    app,
    deadline,
    pointerEvents([pointerEventOf('PointerDownEvent', from.x, from.y), ...moves, pointerEventOf('PointerUpEvent', to.x, to.y)]),
  )
}

/** Focus by a tap at the field, then the text through the focused EditableText, read back. */
async function writeText(app: AppConnection, deadline: Deadline, input: Input, text: string): Promise<Result> {
  const ref = String(input.ref ?? '')
  const node = await liveNode(app, deadline, ref)
  if (roleOf(node) !== 'textbox')
    throw new TapirError(`${ref} is a ${roleOf(node) ?? 'node'}, not a text field: only a text field takes text.`, 'app')
  await tapAt(app, deadline, node)
  await run(app, deadline, replaceFocusedText(text))
  const back = await run(app, deadline, focusedText)
  const value = back.kind === 'Null' ? null : (back.valueAsString ?? null)
  return {ref, effect: {verified: value === text, value}}
}
