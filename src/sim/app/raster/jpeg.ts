import jpeg from 'jpeg-js'
import type {RgbImage} from './paint.js'

/** A baseline JPEG at `quality` (0 to 100); jpeg-js reads RGBA, so each pixel gets an opaque alpha. */
export function encodeJpeg(image: RgbImage, quality: number): Buffer {
  const {width, height, pixels} = image
  const rgba = Buffer.alloc(width * height * 4, 0xff)
  for (let from = 0, to = 0; from < pixels.length; from += 3, to += 4) {
    rgba[to] = pixels[from]!
    rgba[to + 1] = pixels[from + 1]!
    rgba[to + 2] = pixels[from + 2]!
  }
  return jpeg.encode({width, height, data: rgba}, quality).data
}
