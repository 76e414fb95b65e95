import type {AppModel} from './app-model.js'
import type {Point} from './geometry.js'
import {dragBetween, hoverAt, rightClickAt} from './gestures.js'
import {hitTest} from './hit-test.js'
import {tapAt} from './pointer.js'
import type {UiNode} from './ui-node.js'

// What the gesture arena makes of raw pointer events sent through `GestureBinding.handlePointerEvent`
// (flutter/flutter packages/flutter/lib/src/gestures/): a primary down and up within the touch slop
// is a tap; taps close in time and place count up as DoubleTapGestureRecognizer (multitap.dart)
// counts them; a secondary-button tap reaches onSecondaryTap (tap.dart); a hover moves the mouse.

/** gestures/constants.dart. */
export const TOUCH_SLOP = 18
export const DOUBLE_TAP_TIMEOUT_MS = 300
export const DOUBLE_TAP_MIN_TIME_MS = 40
export const DOUBLE_TAP_SLOP = 100
/** kPrimaryButton / kSecondaryButton (gestures/events.dart). */
const PRIMARY = 0x01
const SECONDARY = 0x02

interface Down {
  readonly down: Point
  readonly downAt: number
  readonly secondary: boolean
  at: Point
}

interface LastTap {
  readonly point: Point
  readonly downAt: number
  readonly upAt: number
  readonly count: number
}

export interface PointerEventValue {
  readonly cls: string
  readonly pointer: number
  readonly position: Point
  /** The event's `buttons`; a down with none is a touch or primary-button contact. */
  readonly buttons: number
  readonly mouse: boolean
}

export class PointerArena {
  private readonly downs = new Map<number, Down>()
  private last: LastTap | null = null
  /** A tap a double-tap recogniser holds until kDoubleTapTimeout passes with no second tap. */
  private held: ReturnType<typeof setTimeout> | null = null

  constructor(private readonly app: AppModel) {}

  reset(): void {
    this.downs.clear()
    this.last = null
    if (this.held !== null) clearTimeout(this.held)
    this.held = null
  }

  handle(event: PointerEventValue): void {
    const now = this.app.now()
    if (event.cls === 'PointerHoverEvent') {
      if (event.mouse) hoverAt(this.app, event.position)
      return
    }
    if (event.cls === 'PointerDownEvent') {
      // A down with no buttons set is a touch contact: the engine sets kPrimaryButton for it.
      const buttons = event.buttons === 0 ? PRIMARY : event.buttons
      this.downs.set(event.pointer, {down: event.position, at: event.position, downAt: now, secondary: buttons === SECONDARY})
      return
    }
    const tracked = this.downs.get(event.pointer)
    if (tracked === undefined) return
    if (event.cls === 'PointerMoveEvent') tracked.at = event.position
    if (event.cls !== 'PointerUpEvent') return
    this.downs.delete(event.pointer)
    const moved = Math.hypot(event.position.x - tracked.down.x, event.position.y - tracked.down.y)
    if (moved >= TOUCH_SLOP) {
      dragBetween(this.app, tracked.down, event.position)
      return
    }
    if (tracked.secondary) rightClickAt(this.app, tracked.down)
    else this.tap(tracked, now)
  }

  /** A primary tap: the nth of a run of taps when each came within kDoubleTapTimeout of the last
   *  one's up, within kDoubleTapSlop of it and at least kDoubleTapMinTime after its down. */
  private tap(tracked: Down, upAt: number): void {
    const {last} = this
    const follows =
      last !== null &&
      tracked.downAt - last.upAt <= DOUBLE_TAP_TIMEOUT_MS &&
      tracked.downAt - last.downAt >= DOUBLE_TAP_MIN_TIME_MS &&
      Math.hypot(tracked.down.x - last.point.x, tracked.down.y - last.point.y) <= DOUBLE_TAP_SLOP
    const count = follows ? last.count + 1 : 1
    const heldPoint = last?.point
    if (!follows && this.held !== null && heldPoint !== undefined) {
      // A tap that cannot be the second one resets the recogniser, which lets the held tap win now.
      clearTimeout(this.held)
      this.held = null
      tapAt(this.app, heldPoint)
    }
    this.last = {point: tracked.down, downAt: tracked.downAt, upAt, count}
    const point = tracked.down
    const claimant = (wants: (ui: UiNode) => boolean) => hitTest(this.app.frame, point).find((m) => wants(m.ui))?.ui
    const target = claimant((ui) => ui.onTripleTap !== undefined || ui.onDoubleTap !== undefined || ui.onTap !== undefined)
    if (count === 2 && this.held !== null && target?.onDoubleTap !== undefined) {
      clearTimeout(this.held)
      this.held = null
      // The recogniser resets after a double tap: a third tap starts a new run.
      this.last = null
      target.onDoubleTap()
      this.app.pump()
      return
    }
    if (count === 3 && target?.onTripleTap !== undefined) {
      target.onTripleTap()
      this.app.pump()
      return
    }
    if (target?.onDoubleTap !== undefined) {
      // The double-tap recogniser holds the arena: the tap wins only when its timer runs out.
      this.held = setTimeout(() => {
        this.held = null
        tapAt(this.app, point)
      }, DOUBLE_TAP_TIMEOUT_MS)
      return
    }
    tapAt(this.app, point)
  }
}
