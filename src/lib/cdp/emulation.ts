import {integer, list, number, object} from '../shape.js'
import type {CdpPage} from './page.js'
import type {Viewport} from './presets.js'

/** Metrics (and touch) override, in force while the session that sent it stays open. */
export async function overrideViewport(page: CdpPage, viewport: Viewport): Promise<void> {
  await page.send('Emulation.setDeviceMetricsOverride', {
    width: viewport.width,
    height: viewport.height,
    deviceScaleFactor: viewport.dpr,
    mobile: viewport.mobile,
  })
  if (viewport.touch) await page.send('Emulation.setTouchEmulationEnabled', {enabled: true})
}

export async function overrideUserAgent(page: CdpPage, userAgent: string): Promise<void> {
  await page.send('Emulation.setUserAgentOverride', {userAgent})
}

/** Clears user agent, touch and metrics overrides. */
export async function clearOverrides(page: CdpPage): Promise<void> {
  await page.send('Emulation.setUserAgentOverride', {userAgent: ''})
  await page.send('Emulation.setTouchEmulationEnabled', {enabled: false})
  await page.send('Emulation.clearDeviceMetricsOverride')
}

/** Sizes the page's window (outer size); unlike an override it outlives the session, and it is
 *  what makes a web app lay out at the new size. */
export async function resizeWindow(page: CdpPage, width: number, height: number): Promise<void> {
  const {windowId} = await page.ask('Browser.getWindowForTarget', {}, object({windowId: integer}))
  await page.send('Browser.setWindowBounds', {windowId, bounds: {windowState: 'normal'}})
  await page.send('Browser.setWindowBounds', {windowId, bounds: {width, height}})
}

const layoutAnswer = object({result: object({value: list(number)})})

/** Whether the page lays out at the viewport now: its inner size and pixel ratio, read in it. */
export async function showsViewport(page: CdpPage, viewport: Viewport): Promise<boolean> {
  const {result} = await page.ask(
    'Runtime.evaluate',
    {expression: '[innerWidth, innerHeight, devicePixelRatio]', returnByValue: true},
    layoutAnswer,
  )
  const [width, height, dpr] = result.value
  return width === viewport.width && height === viewport.height && dpr === viewport.dpr
}
