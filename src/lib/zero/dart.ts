// Every Dart expression tapir sends to an app with no package lives here. Each names the Flutter API
// it calls (flutter/flutter, packages/flutter/lib/src/...; docs/zero-install.md lists the revisions
// read where the copy read had one) and the library it is compiled in: a library's imports decide which names it sees, and
// the app's root library need not import the gesture events.

/** rendering/binding.dart imports gestures.dart (GestureBinding, the pointer events, dart:ui's
 *  Offset) and semantics.dart (SemanticsBinding). */
export const RENDERING_LIBRARY = 'package:flutter/src/rendering/binding.dart'
/** widgets/editable_text.dart declares EditableTextState and imports focus_manager.dart, services
 *  (TextEditingValue, TextSelection, and SelectionChangedCause in services/text_input.dart). */
export const EDITABLE_TEXT_LIBRARY = 'package:flutter/src/widgets/editable_text.dart'
/** widgets/navigator.dart declares NavigatorState and imports focus_manager.dart and framework.dart. */
export const NAVIGATOR_LIBRARY = 'package:flutter/src/widgets/navigator.dart'

/** A pointer id far from the engine's own (gestures/binding.dart `_handlePointerEventImmediately`
 *  asserts a down pointer is not already being tracked). */
export const POINTER_ID = 900_001
/** The device id of tapir's mouse: rendering/mouse_tracker.dart keeps one state per device, and
 *  asserts that a PointerAddedEvent only follows a PointerRemovedEvent of the same device, so
 *  tapir sends no Added: the device's first event creates its state (`_shouldMarkStateDirty`). */
export const MOUSE_DEVICE = 900_001

export interface DartExpression {
  readonly library: string
  readonly source: string
}

/** A Dart `double` literal: always with a fraction, never an exponent tapir did not mean. */
export function dartDouble(n: number): string {
  if (!Number.isFinite(n)) throw new RangeError(`not a finite coordinate: ${n}`)
  const fixed = (Math.round(n * 1000) / 1000 + 0).toString()
  return fixed.includes('.') ? fixed : `${fixed}.0`
}

/** Text as a single-quoted Dart string literal: backslash, quote and `$` escaped, every character
 *  outside printable ASCII as `\u{...}`, so no text can end the literal or interpolate. */
export function dartString(text: string): string {
  let out = "'"
  for (const char of text) {
    const code = char.codePointAt(0) ?? 0
    if (char === '\\' || char === "'" || char === '$') out += `\\${char}`
    else if (code >= 0x20 && code < 0x7f) out += char
    else out += `\\u{${code.toString(16)}}`
  }
  return `${out}'`
}

/** SemanticsBinding.ensureSemantics() (semantics/binding.dart): the handle keeps the tree built
 *  for as long as it is not disposed; the VM keeps the returned object alive in its id ring. */
export const ensureSemantics: DartExpression = {library: RENDERING_LIBRARY, source: 'SemanticsBinding.instance.ensureSemantics()'}

type PointerKind = 'PointerDownEvent' | 'PointerMoveEvent' | 'PointerUpEvent'

/** A pointer event, as Dart: PointerXEvent(pointer:, position:[, delta:]) (gestures/events.dart,
 *  the const constructors' named parameters `pointer`, `position`, and `delta` on a move).
 *  Positions are logical pixels. The default kind is a touch, whose down the recognisers take as
 *  kPrimaryButton. */
export function pointerEventOf(kind: PointerKind, x: number, y: number, delta?: {dx: number; dy: number}, pointer = POINTER_ID): string {
  const moved = delta === undefined ? '' : `, delta: Offset(${dartDouble(delta.dx)}, ${dartDouble(delta.dy)})`
  return `${kind}(pointer: ${pointer}, position: Offset(${dartDouble(x)}, ${dartDouble(y)})${moved})`
}

/** Pointer events back to back in one evaluate: a cascade of GestureBinding.instance
 *  .handlePointerEvent calls (gestures/binding.dart `handlePointerEvent`). The app compiles each evaluate's expression first (the frontend
 *  server on a device, DWDS's expression compiler on the web: hundreds of milliseconds), so events
 *  sent as separate evaluates reach it that far apart: a down and its up split so hold the pointer
 *  down past kLongPressTimeout (gestures/constants.dart, 500 ms) on a slow compile, and a tap turns
 *  into a long press. Delivered together they are one gesture, as flutter_test's tap delivers it. */
export function pointerEvents(events: readonly string[]): DartExpression {
  return {library: RENDERING_LIBRARY, source: `GestureBinding.instance${events.map((event) => `..handlePointerEvent(${event})`).join('')}`}
}

/** A mouse's secondary button going down or up at a point: `kind: PointerDeviceKind.mouse` (dart:ui,
 *  re-exported by gestures/events.dart), `device:` tapir's mouse, and on the down `buttons:
 *  kSecondaryButton` (events.dart), so only a secondary-tap recogniser (gestures/tap.dart
 *  `onSecondaryTap`) takes it; the up carries no buttons, as the engine's does. */
export function secondaryButtonOf(kind: 'PointerDownEvent' | 'PointerUpEvent', x: number, y: number): string {
  const buttons = kind === 'PointerDownEvent' ? ', buttons: kSecondaryButton' : ''
  return `${kind}(pointer: ${POINTER_ID}, kind: PointerDeviceKind.mouse, device: ${MOUSE_DEVICE}, position: Offset(${dartDouble(x)}, ${dartDouble(y)})${buttons})`
}

/** A right click's down and up, back to back (see pointerEvents). */
export function secondaryClick(x: number, y: number): DartExpression {
  return pointerEvents([secondaryButtonOf('PointerDownEvent', x, y), secondaryButtonOf('PointerUpEvent', x, y)])
}

/** A mouse moving over a point with no button down: PointerHoverEvent(kind:, device:, position:)
 *  (gestures/events.dart). gestures/binding.dart `_handlePointerEventImmediately` hit-tests a hover
 *  and RendererBinding.dispatchEvent hands it to the MouseTracker (rendering/mouse_tracker.dart),
 *  which runs the MouseRegions' onEnter/onHover/onExit, as a real mouse does. */
export function hoverEvent(x: number, y: number): DartExpression {
  return {
    library: RENDERING_LIBRARY,
    source: `GestureBinding.instance.handlePointerEvent(PointerHoverEvent(kind: PointerDeviceKind.mouse, device: ${MOUSE_DEVICE}, position: Offset(${dartDouble(x)}, ${dartDouble(y)})))`,
  }
}

/** The focused field's state: FocusManager.instance.primaryFocus (widgets/focus_manager.dart) is
 *  the FocusNode EditableText's Focus widget holds; its context lies under the EditableText, so
 *  findAncestorStateOfType (widgets/framework.dart) reaches the EditableTextState. */
const FOCUSED_EDITABLE = 'FocusManager.instance.primaryFocus?.context?.findAncestorStateOfType<EditableTextState>()'

/** EditableTextState.userUpdateTextEditingValue(value, cause) (widgets/editable_text.dart): what
 *  the keyboard does, so input formatters and onChanged run; the caret goes to the end. */
export function replaceFocusedText(text: string): DartExpression {
  return {
    library: EDITABLE_TEXT_LIBRARY,
    source: `${FOCUSED_EDITABLE}?.userUpdateTextEditingValue(TextEditingValue(text: ${dartString(text)}, selection: TextSelection.collapsed(offset: ${text.length})), SelectionChangedCause.keyboard)`,
  }
}

/** EditableTextState.textEditingValue.text of the focused field (null when no field has focus). */
export const focusedText: DartExpression = {library: EDITABLE_TEXT_LIBRARY, source: `${FOCUSED_EDITABLE}?.textEditingValue.text`}

/** FocusNode.unfocus() on the primary focus (widgets/focus_manager.dart; the default
 *  `disposition: UnfocusDisposition.scope` hands focus to the enclosing FocusScope). */
export const unfocusPrimary: DartExpression = {library: NAVIGATOR_LIBRARY, source: 'FocusManager.instance.primaryFocus?.unfocus()'}

/** NavigatorState.maybePop() (widgets/navigator.dart) on the navigator around the primary focus:
 *  a route's FocusScope takes focus when it is pushed (Route.didPush / didAdd there), so this is
 *  the navigator of the route in front: a dialog's on the root navigator, a nested page's on its
 *  branch navigator. maybePop honours PopScope and never pops a navigator's first route (its
 *  popDisposition bubbles), so unlike WidgetsBinding.handlePopRoute it never asks the platform to
 *  close the app. */
export const popFocusedNavigator: DartExpression = {
  library: NAVIGATOR_LIBRARY,
  source: 'FocusManager.instance.primaryFocus?.context?.findAncestorStateOfType<NavigatorState>()?.maybePop()',
}
