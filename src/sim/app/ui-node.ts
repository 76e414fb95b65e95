import type {Rect} from './geometry.js'

/** The semantics a widget contributes (what a `Semantics(...)` or a framework control would annotate). */
export interface SemanticsAnnotation {
  readonly label?: string
  readonly value?: string
  readonly button?: boolean
  readonly textField?: boolean
  readonly obscured?: boolean
  /** hasCheckedState + isChecked. */
  readonly checked?: boolean
  /** hasToggledState + isToggled. */
  readonly toggled?: boolean
  readonly link?: boolean
  readonly header?: boolean
  readonly image?: boolean
  readonly focused?: boolean
  /** The tap action. */
  readonly tap?: boolean
  /** hasEnabledState + isEnabled; undefined means the widget has no enabled state. */
  readonly enabled?: boolean
}

/** A vertical Scrollable's viewport: the node carrying it clips its children to its rect. */
export interface ScrollViewport {
  readonly id: ScrollId
  readonly offset: number
  readonly maxOffset: number
}

export type ScrollId = 'monitorsList' | 'settings'

/** One widget with its laid-out render box: the single description a screen builds. */
export interface UiNode {
  /** Identity among its siblings; the path of these from the root is the element's identity. */
  readonly id: string
  /** The widget's runtime type, as a hit test or an error message names it. */
  readonly widget: string
  readonly rect: Rect
  readonly children: readonly UiNode[]
  /** Creates a semantics node of its own. */
  readonly semantics?: SemanticsAnnotation
  /** MergeSemantics: descendants' nodes are folded into this one and flagged merged. */
  readonly mergesDescendants?: boolean
  /** BlockSemantics on a modal route: siblings painted before it drop out of the semantics tree. */
  readonly blocksEarlierSiblings?: boolean
  /** Offstage / an inactive shell branch: not painted, not hit, no semantics. */
  readonly offstage?: boolean
  /** A Text's `style.color`, or a ColoredBox's `color`, as #rrggbb: painted instead of the theme's shade. */
  readonly color?: string
  /** `Text.data`. */
  readonly text?: string
  /** `ValueKey<String>` value. */
  readonly key?: string
  readonly onTap?: () => void
  /** GestureDetector.onDoubleTap: two primary clicks in quick succession. */
  readonly onDoubleTap?: () => void
  /** A triple tap (a text field's select-all gesture). */
  readonly onTripleTap?: () => void
  /** onSecondaryTap: a right (secondary mouse button) click. */
  readonly onSecondaryTap?: () => void
  /** A MouseRegion: a mouse pointer over it makes this the hovered region. */
  readonly hoverKey?: string
  /** Draggable<int>: the data a drag that starts here carries. */
  readonly dragData?: number
  /** DragTarget<int>.onAccept: what a drop of a Draggable's data here does. */
  readonly onAccept?: (data: number) => void
  /** Painted in an overlay no route owns (a tooltip, a snack bar). */
  readonly overlay?: boolean
  /** A DropdownButton's `onChanged`. */
  readonly onSelect?: (value: string) => void
  /** Absorbs a hit with no handler of its own (a Material background, a modal barrier). */
  readonly opaque?: boolean
  readonly scroll?: ScrollViewport
  /** A RenderFlex that currently overflows (its toStringShort ends with " OVERFLOWING"). */
  readonly overflowing?: boolean
  /** Roots a route; the name is the path the route was pushed for. */
  readonly route?: string
  /** The RenderEditable of a text field: which controller it edits. */
  readonly editable?: FieldKey
}

export type FieldKey = 'email' | 'password' | 'interval' | 'nickname' | 'rename' | 'monitorName'

type NodeProps = Omit<UiNode, 'id' | 'widget' | 'rect' | 'children'>

export function node(id: string, widget: string, rect: Rect, props: NodeProps = {}, children: readonly UiNode[] = []): UiNode {
  return {id, widget, rect, children, ...props}
}

/** A standalone `Text`: its own semantics node labelled with its data. */
export function textNode(id: string, data: string, rect: Rect, props: NodeProps = {}): UiNode {
  return node(id, 'Text', rect, {text: data, semantics: {label: data}, ...props})
}

/** A `Text` inside a control whose semantics node already carries the label. */
export function captionNode(id: string, data: string, rect: Rect): UiNode {
  return node(id, 'Text', rect, {text: data})
}
