import type {AppModel} from './app-model.js'
import {notActionable} from './errors.js'
import type {Mounted} from './frame.js'
import {bottom, centre, dartRect, encloses, hasArea, overlaps, right, type Rect} from './geometry.js'
import {hitTest, reaches, topWidget} from './hit-test.js'
import type {Target} from './queries.js'
import {showOnScreen} from './scroll.js'

export interface GateOptions {
  readonly checkStable: boolean
  readonly checkReceivesEvents: boolean
}

const STABLE_TOLERANCE_PX = 0.5

/**
 * The actionability gate, in its frozen order: defunct, not enabled, zero rect, off-viewport
 * (after showOnScreen), not stable, obscured. Answers the live widget to act on.
 */
export function ensureActionable(app: AppModel, target: Target, ref: string, options: GateOptions): Mounted {
  let m = app.frame.byPath.get(target.mounted.path)
  if (m === undefined) throw notActionable(ref, 'defunct', ' (element no longer attached to a render object)')
  if (app.frame.semByOwner.get(m.path)?.data.enabled === false) throw notActionable(ref, 'not enabled')
  if (!hasArea(m.ui.rect)) throw notActionable(ref, 'zero rect')
  if (!encloses(m.clip, m.ui.rect)) m = showOnScreen(app, m)
  const view = app.frame.root.ui.rect
  if (!overlaps(m.ui.rect, view)) throw notActionable(ref, 'off-viewport', ` (rect=${dartRect(m.ui.rect)}, viewport=${dartRect(view)})`)
  if (options.checkStable) {
    const before = m.ui.rect
    app.pump()
    m = app.frame.byPath.get(m.path) ?? m
    const drift = largestSideDrift(before, m.ui.rect)
    if (drift > STABLE_TOLERANCE_PX) throw notActionable(ref, 'not stable', ` (rect changed by ${drift.toFixed(1)}px)`)
  }
  if (options.checkReceivesEvents) {
    const path = hitTest(app.frame, centre(m.ui.rect))
    if (!reaches(path, m)) throw notActionable(ref, 'obscured by', ` other widget (top=${topWidget(path)})`)
  }
  return m
}

function largestSideDrift(a: Rect, b: Rect): number {
  return Math.max(Math.abs(a.left - b.left), Math.abs(a.top - b.top), Math.abs(right(a) - right(b)), Math.abs(bottom(a) - bottom(b)))
}
