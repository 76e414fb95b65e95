import type {TraceScreenshot} from './format.js'

/** The longest side of a screenshot in a trace, in pixels: a filmstrip frame, not a print. */
export const TRACE_IMAGE_SIDE = 800

/**
 * The screenshot scaled down by a whole factor until its longest side is at most
 * TRACE_IMAGE_SIDE, each pixel the mean of the block it stands for (a box filter), re-encoded as
 * PNG. The app rasterises at its own size (the tool reference gives the capture no scale), so the
 * trace shrinks it here, after the step: a PNG already small enough, or one that will not decode,
 * is kept as it came. pngjs (a dependency already, for the simulated app) decodes and encodes.
 */
export async function shrinkScreenshot(shot: TraceScreenshot): Promise<TraceScreenshot> {
  const {width, height} = shot
  if (shot.format !== 'png' || width === undefined || height === undefined || Math.max(width, height) <= TRACE_IMAGE_SIDE) return shot
  const {PNG} = await import('pngjs')
  let image: {width: number; height: number; data: Buffer}
  try {
    image = PNG.sync.read(Buffer.from(shot.base64, 'base64'))
  } catch {
    return shot
  }
  const factor = Math.ceil(Math.max(image.width, image.height) / TRACE_IMAGE_SIDE)
  const small = boxDown(image, factor)
  const bytes = PNG.sync.write(Object.assign(new PNG({width: 0, height: 0}), small), {colorType: 6})
  return {format: 'png', width: small.width, height: small.height, base64: bytes.toString('base64')}
}

/** RGBA pixels scaled down by `factor`: each output pixel the mean of up to factor × factor. */
export function boxDown(
  image: {width: number; height: number; data: Uint8Array},
  factor: number,
): {width: number; height: number; data: Buffer} {
  const width = Math.ceil(image.width / factor)
  const height = Math.ceil(image.height / factor)
  const data = Buffer.alloc(width * height * 4)
  const sums = new Float64Array(width * 4)
  const counts = new Uint32Array(width)
  for (let y = 0; y < height; y++) {
    sums.fill(0)
    counts.fill(0)
    for (let sy = y * factor, endY = Math.min(image.height, sy + factor); sy < endY; sy++) {
      for (let sx = 0; sx < image.width; sx++) {
        const x = Math.floor(sx / factor)
        const from = (sy * image.width + sx) * 4
        for (let c = 0; c < 4; c++) sums[x * 4 + c] = (sums[x * 4 + c] ?? 0) + (image.data[from + c] ?? 0)
        counts[x] = (counts[x] ?? 0) + 1
      }
    }
    for (let x = 0; x < width; x++)
      for (let c = 0; c < 4; c++) data[(y * width + x) * 4 + c] = Math.round((sums[x * 4 + c] ?? 0) / (counts[x] || 1))
  }
  return {width, height, data}
}
