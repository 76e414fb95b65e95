import {CdpError} from './errors.js'
import type {CdpPage} from './page.js'

export interface Clip {
  x: number
  y: number
  width: number
  height: number
}

/** `Page.captureScreenshot` of the page, or of `clip` (CSS pixels, at scale 1). A hidden page is
 *  brought to front first, so the capture is a fresh frame. */
export async function capturePage(page: CdpPage, options: {format: 'png' | 'jpeg'; quality?: number; clip?: Clip}): Promise<Buffer> {
  await page.send('Page.enable')
  const {result} = await page.send<{result: {value?: unknown}}>('Runtime.evaluate', {
    expression: 'document.visibilityState',
    returnByValue: true,
  })
  if (result.value !== 'visible') await page.send('Page.bringToFront')
  const {data} = await page.send<{data?: string}>('Page.captureScreenshot', {
    format: options.format,
    ...(options.format === 'jpeg' && options.quality !== undefined ? {quality: options.quality} : {}),
    fromSurface: true,
    ...(options.clip ? {clip: {...options.clip, scale: 1}} : {}),
  })
  if (typeof data !== 'string' || data === '') throw new CdpError('CDP command failed: Page.captureScreenshot returned no data')
  return Buffer.from(data, 'base64')
}
