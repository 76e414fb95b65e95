import {TapirError} from '../errors.js'
import {object, string} from '../shape.js'
import type {Input, Result, Verb, VerbCall} from '../verbs/types.js'
import type {AppConnection} from '../vm/app-connection.js'
import type {Deadline} from '../vm/deadline.js'
import {RpcError} from '../vm/rpc-error.js'
import {SEMANTICS_DUMP, zeroInstallable} from '../vm/zero-install.js'
import {ensureSemantics, focusedText, pointerEvent, replaceFocusedText, type DartExpression} from './dart.js'
import {HandleStore, type Predicate} from './handles.js'
import {screenshotThroughInspector} from './screenshot.js'
import {NOT_GENERATED, parseSemanticsDump, type DumpNode} from './semantics-dump.js'
import {allNodes, listedNodes, offscreen, refOf, renderSnapshot, roleOf, viewOf} from './snapshot.js'
import {consoleFromStreams, exceptionsFromStreams} from './streams.js'
import {waitForText} from './wait.js'

// Driving an app that runs no tapir package, through Flutter's own surface: the semantics dump
// for reading, `evaluate` of the Dart in dart.ts for acting. What has no zero-install form yet is
// refused in one line naming `tapir install`.

const DUMP = SEMANTICS_DUMP
const TREE = 'ext.flutter.accessibility.getSemanticsTree'
const dumpAnswer = object({data: string})
const anyObject = object({})
/** How long a turned-on semantics tree may take to be built by the next frame. */
const SEMANTICS_WAIT_MS = 3000

/** What a package-free app can be asked for: Flutter's semantics dump is registered. */
export async function drivesZeroInstall(app: AppConnection, deadline: Deadline): Promise<boolean> {
  // Within a restart's window the package may still be on its way: that answer stands.
  return !(await app.restarting(deadline)) && zeroInstallable(await app.extensionRPCs(deadline))
}

/** Where find's handles are kept: beside the session file of the call being run. */
let handles = new HandleStore(undefined)

export async function runZeroInstall(verb: Verb, call: VerbCall, input: Input): Promise<Result> {
  handles = new HandleStore(call.sessionFile?.())
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
    case 'wait':
      return waitForText(() => readTree(app, call.deadline), input, call.deadline)
    case 'fill':
    case 'type':
    case 'clear':
      return writeText(app, call.deadline, input, verb.name === 'clear' ? '' : String(input.text ?? ''))
    default:
      throw new TapirError(
        (words) =>
          `${words.call(verb.name)} has no zero-install form yet (the app runs no tapir package; see docs/zero-install.md): run tapir install to add the package.`,
        'usage',
      )
  }
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
  const predicate: Predicate = {
    ...(typeof input.text === 'string' ? {text: input.text} : {}),
    ...(typeof input.contains === 'string' ? {contains: input.contains} : {}),
    ...(typeof input.semanticsLabel === 'string' ? {semanticsLabel: input.semanticsLabel} : {}),
    ...(typeof input.within === 'string' ? {within: input.within} : {}),
  }
  const matches = matchesOf(await readTree(app, deadline), predicate)
  if (matches.length === 0) return {matched: false, ref: null}
  return {matched: true, ref: handles.mint(predicate), matchCount: matches.length}
}

/** The listed nodes a predicate matches, in snapshot order (inside its `within` node, if any). */
function matchesOf(root: DumpNode, predicate: Predicate): DumpNode[] {
  const {text, semanticsLabel: label, contains: part, within} = predicate
  const scope = within === undefined ? root : nodeFor(root, within)
  const inScope = new Set([scope, ...allNodes(scope)].map((node) => node.id))
  return listedNodes(root).filter(
    (node) =>
      inScope.has(node.id) &&
      (text === undefined || node.label === text || (node.label === '' && node.value === text)) &&
      (label === undefined || node.label === label) &&
      (part === undefined || node.label.includes(part) || node.value.includes(part)),
  )
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
    .slice(0, typeof input.limit === 'number' ? input.limit : undefined)
    .map(({node, role}) => ({ref: refOf(node), role: role ?? 'button', label: node.label}))
  return {candidates}
}

async function tap(app: AppConnection, deadline: Deadline, input: Input): Promise<Result> {
  const ref = String(input.ref ?? '')
  const node = await liveNode(app, deadline, ref)
  await tapAt(app, deadline, node)
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

function centre(node: DumpNode): {x: number; y: number} {
  return {x: node.rect.left + node.rect.width / 2, y: node.rect.top + node.rect.height / 2}
}

/** Down, five moves, up: gestures/events.dart PointerMoveEvent carries each step's delta. */
async function swipe(app: AppConnection, deadline: Deadline, from: {x: number; y: number}, to: {x: number; y: number}): Promise<void> {
  const STEPS = 5
  await run(app, deadline, pointerEvent('PointerDownEvent', from.x, from.y))
  const step = {dx: (to.x - from.x) / STEPS, dy: (to.y - from.y) / STEPS}
  for (let i = 1; i <= STEPS; i++)
    await run(app, deadline, pointerEvent('PointerMoveEvent', from.x + step.dx * i, from.y + step.dy * i, step))
  await run(app, deadline, pointerEvent('PointerUpEvent', to.x, to.y))
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

async function tapAt(app: AppConnection, deadline: Deadline, node: DumpNode): Promise<void> {
  const x = node.rect.left + node.rect.width / 2
  const y = node.rect.top + node.rect.height / 2
  await run(app, deadline, pointerEvent('PointerDownEvent', x, y))
  await run(app, deadline, pointerEvent('PointerUpEvent', x, y))
}

/** The node a ref names in the tree as it is now: refs are semantics ids, so a node that is gone is a stale ref. */
async function liveNode(app: AppConnection, deadline: Deadline, ref: string): Promise<DumpNode> {
  const root = await readTree(app, deadline)
  const node = nodeFor(root, ref)
  if (offscreen(node, viewOf(root))) throw new TapirError(`${ref} is off screen: scroll it into view first.`, 'app')
  return node
}

function nodeFor(root: DumpNode, ref: string): DumpNode {
  if (/^q\d+$/.test(ref)) return handleNode(root, ref)
  const id = /^e(\d+)$/.exec(ref)?.[1]
  const node = id === undefined ? undefined : allNodes(root).find((candidate) => candidate.id === Number(id) && !candidate.mergedUp)
  if (node === undefined)
    throw new TapirError(`No node ${ref} on screen now (a zero-install ref is a semantics id); take a new tapir:snap.`, 'app')
  return node
}

/** The node a qN's predicate matches in the tree as it is now. */
function handleNode(root: DumpNode, ref: string): DumpNode {
  const predicate = handles.predicate(ref)
  if (predicate === undefined) throw new TapirError((words) => `No handle ${ref} in this session: ${words.call('find')} again.`, 'app')
  const node = matchesOf(root, predicate)[0]
  if (node === undefined) throw new TapirError(`${ref} (${describe(predicate)}) matches nothing on screen now.`, 'app')
  return node
}

const describe = (predicate: Predicate): string =>
  Object.entries(predicate)
    .map(([name, value]) => `${name} ${JSON.stringify(value)}`)
    .join(', ')

/** The semantics tree, turned on first when the app builds none: through the accessibility
 *  inspector where the app has it (it holds a handle), else `ensureSemantics` through evaluate. */
async function readTree(app: AppConnection, deadline: Deadline): Promise<DumpNode> {
  const first = await dump(app, deadline)
  if (first !== undefined) return first
  if ((await app.extensionRPCs(deadline)).includes(TREE)) await app.callFlutter(TREE, {}, anyObject, deadline)
  else await run(app, deadline, ensureSemantics)
  const until = Date.now() + Math.min(SEMANTICS_WAIT_MS, deadline.remainingMs())
  for (;;) {
    const tree = await dump(app, deadline)
    if (tree !== undefined) return tree
    if (Date.now() >= until)
      throw new TapirError(`The app built no semantics tree after tapir turned semantics on (${NOT_GENERATED}).`, 'app')
    await new Promise((resolve) => setTimeout(resolve, 50))
  }
}

async function dump(app: AppConnection, deadline: Deadline): Promise<DumpNode | undefined> {
  return parseSemanticsDump((await app.callFlutter(DUMP, {}, dumpAnswer, deadline)).data)
}

/** Evaluates one of dart.ts's expressions; a compile error (113) or an expression compiler the
 *  app lacks is one line naming what to do. */
async function run(app: AppConnection, deadline: Deadline, expression: DartExpression) {
  try {
    const answer = await app.evaluateInLibrary(expression.library, expression.source, deadline)
    if (answer.type === '@Error') {
      // DWDS answers a compile error as an @Error whose message starts CompilationError.
      const message = answer.message ?? 'an error'
      if (message.startsWith('CompilationError:'))
        throw new TapirError(`The app's compiler refused tapir's Dart: ${message.split('\n')[0]}`, 'app')
      throw new TapirError(`The app threw on tapir's Dart: ${message.split('\n')[0]}`, 'app')
    }
    return answer
  } catch (error) {
    if (!(error instanceof RpcError)) throw error
    const said = (error.details ?? error.rpcMessage).split('\n')[0] ?? ''
    // The VM answers 113 itself when no expression compiler is registered (a profile build, an
    // app flutter run did not start); DWDS -32600 without expression evaluation, and in WebSocket
    // mode -32603 (ProxyService.noSuchMethod): no evaluate at all.
    const noCompiler = error.code === 113 && /No compilation service/.test(error.details ?? error.rpcMessage)
    if (noCompiler || [-32601, -32600, -32603].includes(error.code))
      throw new TapirError(
        `Acting needs evaluate, which this app's debug service does not offer (${error.rpcMessage.split('\n')[0]}): run the app with flutter run in debug mode (on the web, -d chrome with expression evaluation), or run tapir install.`,
        'usage',
      )
    if (error.code === 113) throw new TapirError(`The app's compiler refused tapir's Dart: ${said}`, 'app')
    throw error
  }
}
