import type {AppModel} from './app-model.js'
import {editableIn} from './enrichers.js'
import {isAncestorOrSelf, type Frame, type Mounted} from './frame.js'
import type {FieldKey} from './ui-node.js'

/** What holds keyboard focus in the live tree: a text field, a control (button, tile, row) or nothing. */
export type PrimaryFocus =
  {readonly kind: 'field'; readonly field: FieldKey; readonly widget: Mounted} | {readonly kind: 'control'; readonly widget: Mounted} | null

/** The route on top of the root navigator: the last popup, else the page. Focus lives in its FocusScope. */
export function topRoute(frame: Frame): Mounted {
  const navigator = frame.root.children.find((m) => m.ui.widget === 'Navigator') ?? frame.root
  return navigator.children.at(-1) ?? navigator
}

/** The onstage RenderEditables of the top route, in traversal (tree) order. */
export function focusableFields(frame: Frame): Mounted[] {
  const route = topRoute(frame)
  return [...frame.byPath.values()].filter((m) => m.ui.editable !== undefined && !m.offstage && isAncestorOrSelf(route, m))
}

/**
 * The focus the state records, checked against the live tree: a field or control that left the
 * screen, or sits under a route pushed since, no longer holds focus.
 */
export function primaryFocus(app: AppModel): PrimaryFocus {
  const {state, frame} = app
  if (state.focusedField !== null) {
    const editable = focusableFields(frame).find((m) => m.ui.editable === state.focusedField)
    if (editable !== undefined) return {kind: 'field', field: state.focusedField, widget: editable.parent ?? editable}
  }
  if (state.focusedControl !== null) {
    const control = frame.byPath.get(state.focusedControl)
    if (control !== undefined && !control.offstage && control.ui.onTap !== undefined && isAncestorOrSelf(topRoute(frame), control)) {
      return {kind: 'control', widget: control}
    }
  }
  return null
}

/**
 * The focus node a ref leads to, the way `requestFocus` on the nearest Focus finds it: a text field
 * (the ref's own, or the one around it), else the nearest control at or above the ref that takes taps.
 */
export function focusTargetOf(m: Mounted): {readonly field: FieldKey} | {readonly control: Mounted} | null {
  for (let at: Mounted | null = m; at !== null; at = at.parent) {
    if (at.ui.editable !== undefined) return {field: at.ui.editable}
    if (at.ui.semantics?.textField) {
      const field = editableIn(at)
      if (field !== null) return {field}
    }
    if (at.ui.onTap !== undefined && at.ui.route === undefined && !at.ui.opaque) return {control: at}
    if (at.ui.route !== undefined) break
  }
  return null
}
