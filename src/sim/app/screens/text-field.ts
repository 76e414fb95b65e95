import {rect, type Rect} from '../geometry.js'
import {captionNode, node, type FieldKey, type UiNode} from '../ui-node.js'
import type {BuildContext} from './context.js'

const OBSCURING_CHAR = '•'

/**
 * A TextField as Flutter lays it out: an outer wrapper node (label, tap to focus) with the
 * decoration's label Text and the RenderEditable, which always owns a textbox node of its own.
 * A tap focuses it (caret at the end); a triple tap focuses it with the whole text selected.
 */
export function textField(ctx: BuildContext, field: FieldKey, label: string, at: Rect, obscured = false): UiNode {
  const text = ctx.state.fields[field]
  const shown = obscured ? OBSCURING_CHAR.repeat(text.length) : text
  const focused = ctx.state.focusedField === field
  const editableRect = rect(at.left + 12, at.top + 24, at.width - 24, 24)
  return node(
    field,
    'TextField',
    at,
    {
      key: field,
      semantics: {label, value: shown, textField: true, obscured, focused, tap: true, enabled: true},
      onTap: () => ctx.on.focus(field),
      onTripleTap: () => ctx.on.selectAll(field),
    },
    [
      captionNode('label', label, rect(at.left + 12, at.top + 4, at.width - 24, 16)),
      node('editable', 'EditableText', editableRect, {
        editable: field,
        semantics: {label, value: shown, textField: true, obscured, focused},
      }),
    ],
  )
}
