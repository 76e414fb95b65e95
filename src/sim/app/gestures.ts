import type {AppModel} from './app-model.js'
import type {Mounted} from './frame.js'
import type {Point} from './geometry.js'
import {hitTest} from './hit-test.js'
import {tapAt} from './pointer.js'
import {scrollBy} from './scrolling.js'
import type {UiNode} from './ui-node.js'

/** The widget the gesture arena hands a pointer sequence to: the deepest one on the hit path that wants it. */
function claimant(app: AppModel, point: Point, wants: (ui: UiNode) => boolean): Mounted | undefined {
  return hitTest(app.frame, point).find((m) => wants(m.ui))
}

/**
 * Two primary clicks ~100 ms apart. A widget with a double-tap handler wins both clicks; one with
 * only a tap handler sees two taps (the tree settling in between, so the second lands on whatever
 * the first left there).
 */
export function doubleClickAt(app: AppModel, point: Point): void {
  const target = claimant(app, point, (ui) => ui.onDoubleTap !== undefined || ui.onTap !== undefined)
  if (target?.ui.onDoubleTap !== undefined) {
    target.ui.onDoubleTap()
    app.pump()
    return
  }
  tapAt(app, point)
  tapAt(app, point)
}

/** Three primary clicks: a triple-tap handler (a text field's select all) takes them all; else a double tap then a tap, or three taps. */
export function tripleClickAt(app: AppModel, point: Point): void {
  const target = claimant(app, point, (ui) => ui.onTripleTap !== undefined || ui.onDoubleTap !== undefined || ui.onTap !== undefined)
  if (target?.ui.onTripleTap !== undefined) {
    target.ui.onTripleTap()
    app.pump()
    return
  }
  if (target?.ui.onDoubleTap !== undefined) {
    target.ui.onDoubleTap()
    app.pump()
    tapAt(app, point)
    return
  }
  tapAt(app, point)
  tapAt(app, point)
  tapAt(app, point)
}

/** A secondary-button click: only a secondary-tap recogniser joins the arena, wherever it sits on the path. */
export function rightClickAt(app: AppModel, point: Point): void {
  claimant(app, point, (ui) => ui.onSecondaryTap !== undefined)?.ui.onSecondaryTap?.()
  app.pump()
}

/** A mouse hover event: the MouseRegion under the pointer becomes the hovered one (none clears it). */
export function hoverAt(app: AppModel, point: Point): void {
  app.on.hover(claimant(app, point, (ui) => ui.hoverKey !== undefined)?.ui.hoverKey ?? null)
  app.pump()
}

/**
 * Down at `from`, five moves, up at `to`. A Draggable under `from` carries its data to the
 * DragTarget under `to`; with no Draggable, a Scrollable under `from` follows the pointer
 * (dragging up scrolls the content down).
 */
export function dragBetween(app: AppModel, from: Point, to: Point): void {
  const draggable = claimant(app, from, (ui) => ui.dragData !== undefined)
  if (draggable?.ui.dragData !== undefined) {
    const data = draggable.ui.dragData
    claimant(app, to, (ui) => ui.onAccept !== undefined)?.ui.onAccept?.(data)
    app.pump()
    return
  }
  const scroller = claimant(app, from, (ui) => ui.scroll !== undefined)
  if (scroller !== undefined) scrollBy(app, scroller, from.y - to.y)
  app.pump()
}
