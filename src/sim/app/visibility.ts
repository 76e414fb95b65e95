import type {Frame, Mounted} from './frame.js'
import {bottom, centre, hasArea, overlaps, right, type Rect} from './geometry.js'
import {hitTest, reaches} from './hit-test.js'

/** Non-empty bounds that overlap what can be seen of the widget's viewport. */
export function isVisible(m: Mounted, r: Rect = m.ui.rect): boolean {
  return hasArea(r) && overlaps(r, m.clip)
}

/** False only when the bounds lie wholly outside the view (a zero-size box inside it counts as in). */
export function isInViewport(m: Mounted, r: Rect = m.ui.rect): boolean {
  const view = m.clip
  return r.left <= right(view) && right(r) >= view.left && r.top <= bottom(view) && bottom(r) >= view.top
}

/** A hit test at the centre of a visible widget reaches something painted above it. */
export function isOccluded(frame: Frame, m: Mounted): boolean {
  return isVisible(m) && !reaches(hitTest(frame, centre(m.ui.rect)), m)
}

/** The ` [offscreen]` / ` [occluded]` markers of a snapshot line (a node with no area carries neither). */
export function markers(frame: Frame, m: Mounted): string {
  if (!hasArea(m.ui.rect)) return ''
  if (!isVisible(m)) return ' [offscreen]'
  return isOccluded(frame, m) ? ' [occluded]' : ''
}
