import type {AppModel} from './app-model.js'
import type {Mounted} from './frame.js'
import {bottom, intersect, type Rect} from './geometry.js'

/** `RenderObject.showOnScreen`: scrolls each enclosing Scrollable the least that reveals the widget. */
export function showOnScreen(app: AppModel, m: Mounted): Mounted {
  for (const scroller of m.scrollers) {
    const live = app.frame.byPath.get(m.path)
    const liveScroller = app.frame.byPath.get(scroller.path)
    if (!live || !liveScroller?.ui.scroll) break
    const {id, offset, maxOffset} = liveScroller.ui.scroll
    const next = Math.min(maxOffset, Math.max(0, offset + revealDelta(live.ui.rect, intersect(liveScroller.clip, liveScroller.ui.rect))))
    if (next !== offset) {
      app.state.scroll[id] = next
      app.pump()
    }
  }
  return app.frame.byPath.get(m.path) ?? m
}

function revealDelta(r: Rect, view: Rect): number {
  if (r.top < view.top) return r.top - view.top
  if (bottom(r) > bottom(view)) return Math.min(bottom(r) - bottom(view), r.top - view.top)
  return 0
}
