import {bringToFront} from '../cdp/bring-to-front.js'
import {clearOverrides, overrideViewport} from '../cdp/emulation.js'
import {CdpPage, withPage, type ChromeEndpoint} from '../cdp/page.js'
import {limitOf} from '../cdp/time-limit.js'
import type {BrowserControl, Point} from './browser.js'

/** Pointer moves a drag is split into, so the app's gesture recognisers see a drag. */
const DRAG_MOVES = 10

/**
 * perf_run's hold on the Chrome that shows a web app. Each call opens its own DevTools session,
 * bounded by `callMs` (the verb's --timeout, per call: a run lasts far longer), except the viewport: an emulated size lasts only while its session is open, so that session
 * stays open for the rest of the run (`release` ends it).
 */
export function chromeControl(endpoint: ChromeEndpoint, callMs: number): BrowserControl {
  let sizing: CdpPage | undefined
  const mouse = (page: CdpPage, type: string, at: Point, extra: Record<string, unknown> = {}) =>
    page.send('Input.dispatchMouseEvent', {type, x: at.x, y: at.y, button: 'left', pointerType: 'mouse', ...extra})
  return {
    bringToFront: () => withPage(endpoint, bringToFront, limitOf(callMs)),
    async setViewport(size) {
      sizing ??= await CdpPage.open(endpoint, limitOf(callMs))
      sizing.limitTo(limitOf(callMs))
      await overrideViewport(sizing, {width: size.width, height: size.height, dpr: 1, mobile: false, touch: false})
    },
    wheel: (at, delta, ticks) =>
      withPage(
        endpoint,
        async (page) => {
          for (let tick = 0; tick < ticks; tick++) await mouse(page, 'mouseWheel', at, {button: 'none', deltaX: delta.dx, deltaY: delta.dy})
        },
        limitOf(callMs),
      ),
    drag: (from, delta) =>
      withPage(
        endpoint,
        async (page) => {
          await mouse(page, 'mousePressed', from, {clickCount: 1, buttons: 1})
          for (let move = 1; move <= DRAG_MOVES; move++) {
            await mouse(
              page,
              'mouseMoved',
              {x: from.x + (delta.dx * move) / DRAG_MOVES, y: from.y + (delta.dy * move) / DRAG_MOVES},
              {buttons: 1},
            )
          }
          await mouse(page, 'mouseReleased', {x: from.x + delta.dx, y: from.y + delta.dy}, {clickCount: 1})
        },
        limitOf(callMs),
      ),
    async release() {
      if (!sizing) return
      sizing.limitTo(limitOf(callMs))
      await clearOverrides(sizing).catch(() => {})
      await sizing.close()
      sizing = undefined
    },
  }
}
