import {TapirError} from '../errors.js'
import {object, string} from '../shape.js'
import type {SharedState} from '../verbs/types.js'
import type {AppConnection} from '../vm/app-connection.js'
import type {Deadline} from '../vm/deadline.js'
import {RpcError} from '../vm/rpc-error.js'
import {SEMANTICS_DUMP} from '../vm/zero-install.js'
import {ensureSemantics, pointerEventOf, pointerEvents, type DartExpression} from './dart.js'
import {HandleStore, type Predicate} from './handles.js'
import {NOT_GENERATED, parseSemanticsDump, type DumpNode} from './semantics-dump.js'
import {allNodes, listedNodes, offscreen, roleOf, viewOf} from './snapshot.js'

// The app as a package-free session sees it: the semantics tree read now, a node by its ref, and
// one of dart.ts's expressions evaluated.

const DUMP = SEMANTICS_DUMP
const TREE = 'ext.flutter.accessibility.getSemanticsTree'
const dumpAnswer = object({data: string})
const anyObject = object({})
/** How long a turned-on semantics tree may take to be built by the next frame. */
const SEMANTICS_WAIT_MS = 3000
/** kDoubleTapTimeout (gestures/constants.dart) and a frame: a widget with a double-tap recogniser
 *  gets a single tap only when this has passed with no second tap (multitap.dart). */
export const SETTLE_MS = 400

export function centre(node: DumpNode): {x: number; y: number} {
  return {x: node.rect.left + node.rect.width / 2, y: node.rect.top + node.rect.height / 2}
}

/** A down and an up at the centre of the node's live rect, back to back in one evaluate. */
export async function tapAt(app: AppConnection, deadline: Deadline, node: DumpNode, pointer?: number): Promise<void> {
  const {x, y} = centre(node)
  await run(
    app,
    deadline,
    pointerEvents([
      pointerEventOf('PointerDownEvent', x, y, undefined, pointer),
      pointerEventOf('PointerUpEvent', x, y, undefined, pointer),
    ]),
  )
}

/** The dump as text, polled until it differs from `before` or `SETTLE_MS` passes: an action's
 *  effect may wait on the gesture arena or a frame. */
export async function settled(app: AppConnection, deadline: Deadline, before: string): Promise<string> {
  const until = Date.now() + Math.min(SETTLE_MS, deadline.remainingMs())
  for (;;) {
    const now = await dumpText(app, deadline)
    if (now !== before || Date.now() >= until) return now
    await new Promise((resolve) => setTimeout(resolve, 40))
  }
}

export async function dumpText(app: AppConnection, deadline: Deadline): Promise<string> {
  return (await app.callFlutter(DUMP, {}, dumpAnswer, deadline)).data
}

/** The node a ref names in the tree as it is now: refs are semantics ids, so a node that is gone is a stale ref. */
export async function liveNode(app: AppConnection, deadline: Deadline, ref: string): Promise<DumpNode> {
  const root = await readTree(app, deadline)
  const node = nodeFor(root, ref)
  if (offscreen(node, viewOf(root))) throw new TapirError(`${ref} is off screen: scroll it into view first.`, 'app')
  return node
}

/** Where find's handles are kept: beside the session file of the call being run. */
let handles = new HandleStore(undefined)

/** The handles of the session whose call runs now (its handle file, or none). */
export function useHandles(shared: SharedState | undefined): void {
  handles = new HandleStore(shared)
}

/** A new qN for the predicate, kept with the session. */
export function mintHandle(predicate: Predicate): Promise<string> {
  return handles.mint(predicate)
}

export function nodeFor(root: DumpNode, ref: string): DumpNode {
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
  const node = pickOf(matchesOf(root, predicate))
  if (node === undefined) throw new TapirError(`${ref} (${describe(predicate)}) matches nothing on screen now.`, 'app')
  return node
}

const describe = (predicate: Predicate): string =>
  Object.entries(predicate)
    .map(([name, value]) => `${name} ${JSON.stringify(value)}`)
    .join(', ')

/** A control a user acts on, by its snapshot role (a heading, an image or plain text is not). */
const ACTIONABLE = new Set(['button', 'textbox', 'checkbox', 'link'])

/** The node a handle names among those its predicate matches: the first control, and the first
 *  in tree order only when none is one, as the package's find picks (the reference, tapir_find:
 *  "the first interactive one wins"); so a recording's find step names the same widget here. */
export function pickOf(matches: readonly DumpNode[]): DumpNode | undefined {
  return matches.find((node) => ACTIONABLE.has(roleOf(node) ?? '')) ?? matches[0]
}

/** The predicate that applies: not intersected, the first one set in the order semanticsLabel,
 *  text, contains (the reference, tapir_find; `key` comes first there, and is refused here), with
 *  its `within`, which bounds whichever applies. */
export function appliedPredicate(predicate: Predicate): Predicate {
  const {semanticsLabel, text, contains, within} = predicate
  const scope = within === undefined ? {} : {within}
  if (semanticsLabel !== undefined) return {semanticsLabel, ...scope}
  if (text !== undefined) return {text, ...scope}
  if (contains !== undefined) return {contains, ...scope}
  return scope
}

/** The listed nodes a predicate matches, in snapshot order (inside its `within` node, if any). */
export function matchesOf(root: DumpNode, predicate: Predicate): DumpNode[] {
  const {text, semanticsLabel: label, contains: part, within} = appliedPredicate(predicate)
  if (text === undefined && label === undefined && part === undefined) return []
  const scope = within === undefined ? root : nodeFor(root, within)
  const inScope = new Set([scope, ...allNodes(scope)].map((node) => node.id))
  return listedNodes(root).filter(
    (node) =>
      inScope.has(node.id) &&
      (label !== undefined
        ? node.label === label
        : text !== undefined
          ? node.label === text || (node.label === '' && node.value === text)
          : part !== undefined && (node.label.includes(part) || node.value.includes(part))),
  )
}

/** The semantics tree, turned on first when the app builds none: through the accessibility
 *  inspector where the app has it (it holds a handle), else `ensureSemantics` through evaluate. */
export async function readTree(app: AppConnection, deadline: Deadline): Promise<DumpNode> {
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
export async function run(app: AppConnection, deadline: Deadline, expression: DartExpression) {
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
