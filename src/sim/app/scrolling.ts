import type {AppModel} from './app-model.js'
import type {Frame, Mounted} from './frame.js'
import {intersect} from './geometry.js'

/** A scroll's before and after offsets, the latter read back off the frame drawn after it. */
export interface ScrollMove {
  readonly before: number
  readonly after: number
}

/** The first laid-out Scrollable in tree order (offstage branches are not laid out). */
export function firstScrollable(frame: Frame, within: Mounted = frame.root): Mounted | null {
  const visit = (m: Mounted): Mounted | null => {
    if (m.offstage) return null
    if (m.ui.scroll !== undefined) return m
    for (const child of m.children) {
      const found = visit(child)
      if (found !== null) return found
    }
    return null
  }
  return visit(within)
}

/** The Scrollable a ref drives: itself, its nearest Scrollable ancestor, else the first one inside it. */
export function scrollableAround(frame: Frame, m: Mounted): Mounted | null {
  if (m.ui.scroll !== undefined) return m
  return m.scrollers[0] ?? firstScrollable(frame, m)
}

function offsetOf(app: AppModel, scroller: Mounted): number {
  return app.frame.byPath.get(scroller.path)?.ui.scroll?.offset ?? scroller.ui.scroll?.offset ?? 0
}

/** `position.jumpTo(pixels + delta)`, clamped to the scroll extents; the frame settles before the read back. */
export function scrollBy(app: AppModel, scroller: Mounted, delta: number): ScrollMove {
  const live = app.frame.byPath.get(scroller.path) ?? scroller
  const viewport = live.ui.scroll
  if (viewport === undefined) return {before: 0, after: 0}
  const before = viewport.offset
  const next = Math.min(viewport.maxOffset, Math.max(0, before + delta))
  if (next !== before) {
    app.state.scroll[viewport.id] = next
    app.pump()
  }
  return {before, after: offsetOf(app, live)}
}

/**
 * `Scrollable.ensureVisible(context)` with its defaults (alignment 0.0, explicit policy): the
 * widget's leading edge goes to the viewport's leading edge, as far as the extents allow, even
 * when it is already in view.
 */
export function ensureVisible(app: AppModel, scroller: Mounted, target: Mounted): ScrollMove {
  const live = app.frame.byPath.get(scroller.path) ?? scroller
  const liveTarget = app.frame.byPath.get(target.path) ?? target
  const view = intersect(live.clip, live.ui.rect)
  return scrollBy(app, live, liveTarget.ui.rect.top - view.top)
}
