// Every Dart expression tapir sends to an app with no package lives here. Each names the Flutter API
// it calls (flutter/flutter, packages/flutter/lib/src/..., at the revisions docs/zero-install.md
// lists) and the library it is compiled in: a library's imports decide which names it sees, and
// the app's root library need not import the gesture events.

/** rendering/binding.dart imports gestures.dart (GestureBinding, the pointer events, dart:ui's
 *  Offset) and semantics.dart (SemanticsBinding). */
export const RENDERING_LIBRARY = 'package:flutter/src/rendering/binding.dart'
/** widgets/editable_text.dart declares EditableTextState and imports focus_manager.dart, services
 *  (TextEditingValue, TextSelection) and rendering (SelectionChangedCause). */
export const EDITABLE_TEXT_LIBRARY = 'package:flutter/src/widgets/editable_text.dart'

/** A pointer id far from the engine's own (gestures/binding.dart `_handlePointerEventImmediately`
 *  asserts a down pointer is not already being tracked). */
export const POINTER_ID = 900_001

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

/** GestureBinding.instance.handlePointerEvent(PointerXEvent(pointer:, position:[, delta:]))
 *  (gestures/binding.dart `handlePointerEvent`; gestures/events.dart, the const constructors'
 *  named parameters `pointer`, `position`, and `delta` on a move). Positions are logical pixels. */
export function pointerEvent(kind: PointerKind, x: number, y: number, delta?: {dx: number; dy: number}): DartExpression {
  const moved = delta === undefined ? '' : `, delta: Offset(${dartDouble(delta.dx)}, ${dartDouble(delta.dy)})`
  return {
    library: RENDERING_LIBRARY,
    source: `GestureBinding.instance.handlePointerEvent(${kind}(pointer: ${POINTER_ID}, position: Offset(${dartDouble(x)}, ${dartDouble(y)})${moved}))`,
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
