import {isAncestorOrSelf, type Frame, type Mounted} from './frame.js'
import {contains, type Point} from './geometry.js'

/** The hit-test path at a point, deepest first, the way RenderBox.hitTest builds it. */
export function hitTest(frame: Frame, point: Point): Mounted[] {
  return visit(frame.root, point) ?? []
}

function visit(m: Mounted, point: Point): Mounted[] | null {
  if (m.offstage || !contains(m.ui.rect, point)) return null
  for (let i = m.children.length - 1; i >= 0; i--) {
    const below = visit(m.children[i]!, point)
    if (below) return [...below, m]
  }
  return hitsSelf(m) ? [m] : null
}

function hitsSelf(m: Mounted): boolean {
  return m.ui.onTap !== undefined || Boolean(m.ui.opaque) || m.ui.text !== undefined || m.ui.editable !== undefined
}

/** True when a pointer at `point` reaches `target` itself or something inside it. */
export function reaches(path: readonly Mounted[], target: Mounted): boolean {
  return path.length > 0 && isAncestorOrSelf(target, path[0]!)
}

/** The widget a refused hit names: the nearest entry that handles or absorbs the pointer. */
export function topWidget(path: readonly Mounted[]): string {
  const absorber = path.find((m) => m.ui.onTap !== undefined || m.ui.opaque)
  return (absorber ?? path[0])?.ui.widget ?? 'none'
}

/** The handler a tap at the top of this path triggers. */
export function tapHandler(path: readonly Mounted[]): (() => void) | undefined {
  return path.find((m) => m.ui.onTap !== undefined)?.ui.onTap
}
