import {PNG} from 'pngjs'
import type {RgbImage} from './paint.js'

const COLOUR_TYPE_RGB = 2
const FILTER_NONE = 0
const Z_DEFAULT_STRATEGY = 0

/** An 8-bit truecolour PNG, as the engine's `toByteData(format: png)` gives one. */
export function encodePng(image: RgbImage): Buffer {
  const {width, height, pixels} = image
  const rgb = Buffer.from(pixels.buffer, pixels.byteOffset, pixels.byteLength)
  return PNG.sync.write(Object.assign(new PNG({width: 0, height: 0}), {width, height, data: rgb}), {
    colorType: COLOUR_TYPE_RGB,
    inputColorType: COLOUR_TYPE_RGB,
    inputHasAlpha: false,
    // The screens are mostly flat colour: unfiltered rows with plain deflate come out as small as
    // pngjs's default (adaptive filters, run-length deflate) at a quarter of its time.
    filterType: FILTER_NONE,
    deflateStrategy: Z_DEFAULT_STRATEGY,
  })
}
