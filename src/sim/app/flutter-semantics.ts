import type {AppModel} from './app-model.js'
import type {SemNode, SemanticsData} from './frame.js'
import type {Rect} from './geometry.js'

// Flutter's own views of the semantics tree, as a debug app without any package answers them.
// The text is `SemanticsNode.toStringDeep` (flutter/flutter packages/flutter/lib/src/semantics/
// semantics.dart, `SemanticsNode.debugFillProperties`, sparse tree style), as
// `ext.flutter.debugDumpSemanticsTreeIn*Order` returns it (rendering/binding.dart,
// `_generateSemanticsTree`); the JSON is `ext.flutter.accessibility.getSemanticsTree`
// (widgets/accessibility_inspector.dart, `_getSemanticsTree`'s `toJsonMap`). Both describe each
// node's rect in its own coordinates and its transform to its parent's: the root's rect in physical
// pixels; its children's transform the device pixel ratio's scale times their offset in the view
// (rendering/view.dart `RenderView.applyPaintTransform`, then each box's offset), every other node
// translated from its parent. The text prints a translation by shifting the rect, a scale alone as
// `scaled by Nx`, and any other transform as `with transform [rows]` (`debugFillProperties`).

/** `_generateSemanticsTree` when the framework builds no semantics (rendering/binding.dart). */
export const SEMANTICS_NOT_GENERATED =
  'Semantics not generated.\n' +
  'For performance reasons, the framework only generates semantics when asked to do so by the platform.\n' +
  'Usually, platforms only ask for semantics when assistive technologies (like screen readers) are running.\n' +
  'To generate semantics, try turning on an assistive technology (like VoiceOver or TalkBack) on your device.'

/** `SemanticsFlag.values` order (bit order) for the flags the app's widgets set. */
function flagsOf(data: SemanticsData): string[] {
  const flags: string[] = []
  if (data.checked !== undefined) flags.push('hasCheckedState', ...(data.checked ? ['isChecked'] : []))
  if (data.button) flags.push('isButton')
  if (data.textField) flags.push('isTextField')
  if (data.focused) flags.push('isFocused')
  if (data.enabled !== undefined) flags.push('hasEnabledState', ...(data.enabled ? ['isEnabled'] : []))
  if (data.header) flags.push('isHeader')
  if (data.obscured) flags.push('isObscured')
  if (data.image) flags.push('isImage')
  if (data.toggled !== undefined) flags.push('hasToggledState', ...(data.toggled ? ['isToggled'] : []))
  if (data.link) flags.push('isLink')
  return flags
}

/** `SemanticsAction` names the node handles, in `SemanticsAction.values` (bit) order; the text dump sorts them. */
function actionsOf(data: SemanticsData): string[] {
  const actions: string[] = []
  if (data.tap || data.button || data.textField || data.checked !== undefined || data.toggled !== undefined) actions.push('tap')
  if (data.textField) actions.push('focus')
  return actions
}

/** `Rect.toString`: `Rect.fromLTRB(l, t, r, b)`, each `toStringAsFixed(1)`. */
function rectText(r: Rect): string {
  const f = (n: number): string => n.toFixed(1)
  return `Rect.fromLTRB(${f(r.left)}, ${f(r.top)}, ${f(r.left + r.width)}, ${f(r.top + r.height)})`
}

/** The rect a node reports in its parent's coordinates (translation-only transforms below the scale). */
function localRect(sem: SemNode): Rect {
  const {rect} = sem.data
  if (sem.parent === null || sem.parent.parent === null) return rect
  const origin = sem.parent.data.rect
  return {left: rect.left - origin.left, top: rect.top - origin.top, width: rect.width, height: rect.height}
}

/** A Dart double's `toString` for the values a transform holds: `2.0`, `0.5`, `48.0`. */
const dartNumber = (n: number): string => (Number.isInteger(n) ? n.toFixed(1) : String(n))

/** A root child's transform: the pixel ratio's scale, then its offset in the view. */
function topTransform(rect: Rect, dpr: number): number[] {
  return [dpr, 0, 0, 0, 0, dpr, 0, 0, 0, 0, 1, 0, dpr * rect.left, dpr * rect.top, 0, 1]
}

/** A root child's rect line: `scaled by` when its transform is the scale alone (MatrixUtils.getAsScale
 *  needs no translation), else `with transform [...]`, the first four lines of vector_math's
 *  `Matrix4.toString` (rows `x,y,z,w`) less their `[i] ` heads, joined by `; `; wrapped at spaces. */
function topRectLines(rect: Rect, dpr: number): string[] {
  const own = rectText({left: 0, top: 0, width: rect.width, height: rect.height})
  if (rect.left === 0 && rect.top === 0) return [`${own} scaled by ${dpr.toFixed(1)}x`]
  const m = topTransform(rect, dpr)
  const rows = [0, 1, 2, 3].map((row) => [0, 1, 2, 3].map((column) => dartNumber(m[column * 4 + row]!)).join(','))
  return wordWrapped(`${own} with transform [${rows.join('; ')}]`)
}

/** The TextTreeRenderer's wrap of a long property line at word boundaries, the rest indented two more. */
function wordWrapped(text: string): string[] {
  const WIDTH = 65
  const lines: string[] = []
  let line = ''
  for (const word of text.split(' ')) {
    const piece = line === '' ? word : `${line} ${word}`
    if (piece.length > WIDTH && line.trim() !== '') {
      lines.push(line)
      line = `  ${word}`
    } else line = piece
  }
  lines.push(line)
  return lines
}

/** The TextTreeRenderer wraps a property line past 65 columns at ", ", the rest indented two more. */
function wrapped(text: string): string[] {
  const WIDTH = 65
  if (text.length <= WIDTH || !text.includes(', ')) return [text]
  const lines: string[] = []
  let line = ''
  for (const part of text.split(', ')) {
    const piece = line === '' ? part : `${line}, ${part}`
    if (piece.length + 1 > WIDTH && line !== '') {
      lines.push(`${line},`)
      line = `  ${part}`
    } else line = piece
  }
  lines.push(line)
  return lines
}

function properties(sem: SemNode, dpr: number): string[] {
  const lines: string[] = []
  const {data} = sem
  if (sem.mergedIntoParent) lines.push('merged up ⬆️')
  if (sem.owner.ui.mergesDescendants) lines.push('merge boundary ⛔️')
  if (sem.parent === null) lines.push(rectText({left: 0, top: 0, width: data.rect.width * dpr, height: data.rect.height * dpr}))
  else if (sem.parent.parent === null) lines.push(...topRectLines(localRect(sem), dpr))
  else lines.push(rectText(localRect(sem)))
  const actions = actionsOf(data).sort()
  if (actions.length > 0) lines.push(...wrapped(`actions: ${actions.join(', ')}`))
  const flags = flagsOf(data)
  if (flags.length > 0) lines.push(...wrapped(`flags: ${flags.join(', ')}`))
  if (data.label !== '') lines.push(`label: "${data.label}"`)
  if (data.value !== '') lines.push(`value: "${data.value}"`)
  if (data.label !== '' || data.value !== '') lines.push('textDirection: ltr')
  return lines
}

/** `SemanticsNode.toStringDeep(childOrder: ...)` of the root, in the sparse style. */
export function semanticsDump(app: AppModel, order: 'traversal' | 'inverseHitTest'): string {
  if (!app.semanticsEnabled) return SEMANTICS_NOT_GENERATED
  const dpr = app.view.devicePixelRatio
  const out: string[] = []
  const visit = (sem: SemNode, first: string, rest: string): void => {
    const children = order === 'traversal' ? sem.children : [...sem.children].reverse()
    out.push(`${first}SemanticsNode#${sem.id}`)
    const lead = children.length > 0 ? ' │ ' : '   '
    for (const line of properties(sem, dpr)) out.push(`${rest}${lead}${line}`)
    if (children.length > 0) out.push(`${rest} │`)
    children.forEach((child, index) => {
      const last = index === children.length - 1
      visit(child, `${rest}${last ? ' └─' : ' ├─'}`, `${rest}${last ? '  ' : ' │'}`)
      if (!last) out.push(`${rest} │`)
    })
  }
  visit(app.frame.semRoot, '', '')
  return `${out.join('\n')}\n`
}

/** `_getSemanticsTree`'s answer: the root node's map, children nested (`visitChildren`). */
export function semanticsTreeJson(app: AppModel): Record<string, unknown> {
  const dpr = app.view.devicePixelRatio
  const toJson = (sem: SemNode): Record<string, unknown> => {
    const {data} = sem
    const top = sem.parent !== null && sem.parent.parent === null
    const local = localRect(sem)
    const rect =
      sem.parent === null
        ? {left: 0, top: 0, width: data.rect.width * dpr, height: data.rect.height * dpr}
        : {left: 0, top: 0, width: local.width, height: local.height}
    const transform =
      sem.parent === null ? undefined : top ? topTransform(local, dpr) : [1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, local.left, local.top, 0, 1]
    return {
      id: String(sem.id),
      label: data.label,
      value: data.value,
      hint: '',
      tooltip: '',
      increasedValue: '',
      decreasedValue: '',
      flags: flagsOf(data),
      actions: actionsOf(data),
      rect,
      ...(transform === undefined ? {} : {transform}),
      children: sem.children.map(toJson),
    }
  }
  return toJson(app.frame.semRoot)
}
