import {bringToFront} from './bring-to-front.js'
import {CdpError} from './errors.js'
import {imageProblem, type ImageFormat} from './image-check.js'
import {pageVisibility} from './page-visibility.js'
import type {CdpPage} from './page.js'

export interface Clip {
  x: number
  y: number
  width: number
  height: number
}

/** `Page.captureScreenshot` of the page, or of `clip` (CSS pixels, at scale 1). A hidden page is
 *  brought to front first, so the capture is a fresh frame. The bytes are checked to be an image
 *  of the format asked for before anyone writes them. */
export async function capturePage(page: CdpPage, options: {format: ImageFormat; quality?: number; clip?: Clip}): Promise<Buffer> {
  await page.send('Page.enable')
  if ((await pageVisibility(page)) !== 'visible') await bringToFront(page)
  const {data} = await page.send('Page.captureScreenshot', {
    format: options.format,
    ...(options.format === 'jpeg' && options.quality !== undefined ? {quality: options.quality} : {}),
    fromSurface: true,
    ...(options.clip ? {clip: {...options.clip, scale: 1}} : {}),
  })
  if (typeof data !== 'string' || data === '') throw new CdpError('CDP command failed: Page.captureScreenshot returned no data')
  const bytes = Buffer.from(data, 'base64')
  const problem = imageProblem(bytes, options.format)
  if (problem)
    throw new CdpError(`Chrome's screenshot is not a ${options.format === 'png' ? 'PNG' : 'JPEG'} image (${problem}); nothing was written.`)
  return bytes
}
