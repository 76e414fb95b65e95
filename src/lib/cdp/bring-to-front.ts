import {isObject} from './json-shape.js'
import {pageVisibility} from './page-visibility.js'
import type {CdpPage} from './page.js'

/** How long a tab may take to report itself visible once brought to the front. */
const VISIBLE_WITHIN_MS = 2000
const POLL_MS = 50

/** A minimised window back to normal; a browser that names no window for the page is left alone. */
async function restoreWindow(page: CdpPage): Promise<void> {
  const answer = await page.send('Browser.getWindowForTarget')
  if (typeof answer.windowId !== 'number' || !isObject(answer.bounds) || answer.bounds.windowState !== 'minimized') return
  await page.send('Browser.setWindowBounds', {windowId: answer.windowId, bounds: {windowState: 'normal'}})
}

/**
 * Brings the app's tab to the front, so Chrome draws its frames again: a minimised window is
 * restored first (a headless Chrome leaves a minimised window minimised on `Page.bringToFront`,
 * and its tab hidden), the tab is activated, and the call returns once the page reports itself
 * visible (or after a short bound, when it never does).
 */
export async function bringToFront(page: CdpPage): Promise<void> {
  await restoreWindow(page)
  await page.send('Page.bringToFront')
  const deadline = Date.now() + VISIBLE_WITHIN_MS
  while ((await pageVisibility(page)) !== 'visible' && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, POLL_MS))
}
