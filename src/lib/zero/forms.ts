import {TapirError} from '../errors.js'
import type {Input, Result} from '../verbs/types.js'
import type {AppConnection} from '../vm/app-connection.js'
import type {Deadline} from '../vm/deadline.js'
import {hoverEvent, POINTER_ID, popFocusedNavigator, secondaryClick, unfocusPrimary} from './dart.js'
import {centre, dumpText, liveNode, nodeFor, run, SETTLE_MS, settled, tapAt} from './live.js'
import {parseSemanticsDump, type DumpNode} from './semantics-dump.js'
import {listedNodes, offscreen, roleOf, viewOf} from './snapshot.js'

// The zero-install forms of the gestures and controls beyond tap, drag, scroll and text. Each
// chooses between pointer events at the node's live rect (what a user's finger or mouse does: hit
// testing and the gesture arena decide) and Flutter's own calls (focus, navigation), and says why.
// Every effect is read back from the semantics tree.

type Form = (app: AppConnection, deadline: Deadline, input: Input) => Promise<Result>

/** Between the taps of a double or triple tap: past kDoubleTapMinTime (40 ms) from the last down,
 *  well inside kDoubleTapTimeout (300 ms) from the last up (gestures/constants.dart; multitap.dart
 *  restarts the count on a tap that comes sooner, and gives up on one that comes later). */
const BETWEEN_TAPS_MS = 60

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

/** Taps in a run at the node's centre, each with its own pointer id (the engine never reuses one). */
async function taps(app: AppConnection, deadline: Deadline, input: Input, count: number): Promise<Result> {
  const ref = String(input.ref ?? '')
  const node = await liveNode(app, deadline, ref)
  const before = await dumpText(app, deadline)
  for (let i = 0; i < count; i++) {
    if (i > 0) await sleep(BETWEEN_TAPS_MS)
    await tapAt(app, deadline, node, POINTER_ID + i)
  }
  // The tap after a double tap starts another, which multitap.dart holds until kDoubleTapTimeout
  // passes: only then does it reach the widget as a tap, so the answer waits that long for it.
  if (count > 2 && count % 2 === 1) await sleep(Math.min(SETTLE_MS, deadline.remainingMs()))
  await settled(app, deadline, before)
  return {ref}
}

/** A mouse's secondary button down and up at the node's centre. */
async function rightClick(app: AppConnection, deadline: Deadline, input: Input): Promise<Result> {
  const ref = String(input.ref ?? '')
  const {x, y} = centre(await liveNode(app, deadline, ref))
  const before = await dumpText(app, deadline)
  await run(app, deadline, secondaryClick(x, y))
  await settled(app, deadline, before)
  return {ref, button: 'right'}
}

/** A mouse hover at the node's centre: the mouse stays there, as the package's hover leaves it. */
async function hover(app: AppConnection, deadline: Deadline, input: Input): Promise<Result> {
  const ref = String(input.ref ?? '')
  const {x, y} = centre(await liveNode(app, deadline, ref))
  const before = await dumpText(app, deadline)
  await run(app, deadline, hoverEvent(x, y))
  await settled(app, deadline, before)
  return {ref}
}

/** A text field takes focus from a tap, as a user gives it; `focused` is its isFocused flag after.
 *  Anything else would need the widget's FocusNode, which the semantics tree does not lead to. */
async function focus(app: AppConnection, deadline: Deadline, input: Input): Promise<Result> {
  const ref = String(input.ref ?? '')
  const node = await liveNode(app, deadline, ref)
  if (roleOf(node) !== 'textbox')
    throw new TapirError(
      `${ref} is a ${roleOf(node) ?? 'node'}: zero-install focus reaches only a text field (by a tap); run tapir install to focus any widget.`,
      'usage',
    )
  const before = await dumpText(app, deadline)
  await tapAt(app, deadline, node)
  const after = nodeFor(tree(await settled(app, deadline, before)), ref)
  return {ref, focused: after.flags.has('isFocused')}
}

/** FocusNode.unfocus() on the primary focus; `hadFocus` is whether any node was isFocused before. */
async function blur(app: AppConnection, deadline: Deadline): Promise<Result> {
  const before = await dumpText(app, deadline)
  const hadFocus = listedNodes(tree(before)).some((node) => node.flags.has('isFocused'))
  await run(app, deadline, unfocusPrimary)
  await settled(app, deadline, before)
  return {blurred: true, hadFocus}
}

/** A tap at the control when its checked or toggled flag differs from the wanted state, then the
 *  flag read back: what a user does, so the control's own onChanged and its parent decide. */
async function setCheckbox(app: AppConnection, deadline: Deadline, input: Input): Promise<Result> {
  const ref = String(input.ref ?? '')
  const value = input.value !== 'false' && input.value !== false
  const node = await liveNode(app, deadline, ref)
  const before = stateOf(node)
  if (before === null)
    throw new TapirError(`${ref} has no checked or toggled state in the semantics tree: pass the ref of a checkbox or switch.`, 'app')
  const toggled = before !== value
  let after: boolean | null = before
  if (toggled) {
    const text = await dumpText(app, deadline)
    await tapAt(app, deadline, node)
    after = stateOf(nodeFor(tree(await settled(app, deadline, text)), ref))
  }
  return {ref, previousValue: before, value, toggled, effect: {kind: 'checked', verified: after === value, before, after}}
}

function stateOf(node: DumpNode): boolean | null {
  if (node.flags.has('hasCheckedState')) return node.flags.has('isChecked')
  if (node.flags.has('hasToggledState')) return node.flags.has('isToggled')
  return null
}

/** A tap on the dropdown, then a tap on the menu item whose label is the value, then the
 *  dropdown's value read back: the menu a user sees, not a call to its onChanged. */
async function selectOption(app: AppConnection, deadline: Deadline, input: Input): Promise<Result> {
  const ref = String(input.ref ?? '')
  const value = String(input.value ?? '')
  const dropdown = await liveNode(app, deadline, ref)
  const closed = await dumpText(app, deadline)
  await tapAt(app, deadline, dropdown)
  // The menu's items are the nodes the tap brought: never a button that was on the page before.
  const before = new Set(listedNodes(tree(closed)).map((node) => node.id))
  const menu = tree(await settled(app, deadline, closed))
  const view = viewOf(menu)
  const brought = listedNodes(menu).filter((node) => !before.has(node.id) && !offscreen(node, view))
  if (brought.length === 0) throw new TapirError(`A tap on ${ref} opened no menu: pass the ref of a dropdown.`, 'app')
  const items = brought.filter((node) => roleOf(node) !== null)
  const item = items.find((node) => node.label === value)
  if (item === undefined) {
    await run(app, deadline, popFocusedNavigator)
    const offered = items.map((node) => JSON.stringify(node.label)).join(', ')
    throw new TapirError(
      `No option ${JSON.stringify(value)} in the menu ${ref} opened (it offered ${offered || 'none'}); it was closed again.`,
      'app',
    )
  }
  const open = await dumpText(app, deadline)
  await tapAt(app, deadline, item)
  const after = tree(await settled(app, deadline, open))
  const held = listedNodes(after).find((node) => node.id === dropdown.id)?.value ?? null
  return {selected: true, value, effect: {verified: held === value, value: held}}
}

/** NavigatorState.maybePop() on the navigator of the route in front; `popped` is whether the
 *  screen changed. */
async function navigateBack(app: AppConnection, deadline: Deadline): Promise<Result> {
  const before = await dumpText(app, deadline)
  const answer = await run(app, deadline, popFocusedNavigator)
  // Null: the chain stopped short (no focus, or a focus outside any route), so no maybePop ran.
  if (answer.kind === 'Null')
    throw new TapirError(
      "No route holds the app's focus, so tapir cannot tell which navigator to pop: tap the page's Back button, or run tapir install.",
      'app',
    )
  const popped = (await settled(app, deadline, before)) !== before
  return {navigatedBack: popped, popped}
}

function tree(text: string): DumpNode {
  const root = parseSemanticsDump(text)
  if (root === undefined) throw new TapirError('The app stopped building its semantics tree; take a new tapir:snap.', 'app')
  return root
}

export const ZERO_INSTALL_FORMS: Readonly<Record<string, Form>> = {
  dblclick: (app, deadline, input) => taps(app, deadline, input, 2),
  triple_click: (app, deadline, input) => taps(app, deadline, input, 3),
  right_click: rightClick,
  hover,
  focus,
  blur,
  set_checkbox: setCheckbox,
  select_option: selectOption,
  navigate_back: navigateBack,
}
