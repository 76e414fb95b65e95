import {crc32, deflateSync} from 'node:zlib'
import type {RgbImage} from './paint.js'

const SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])
const BIT_DEPTH = 8
const COLOUR_TYPE_RGB = 2

/**
 * An 8-bit truecolour PNG, as the engine's `toByteData(format: png)` gives one (W3C PNG, sections
 * 5.3 and 11.2: the signature, IHDR, one IDAT, IEND). Each row goes unfiltered (filter type 0):
 * the screens are mostly flat colour, and deflate alone makes them as small as adaptive filters
 * do. zlib does the deflating; the sim's own work is a copy a row.
 */
export function encodePng(image: RgbImage): Buffer {
  const {width, height, pixels} = image
  const rowBytes = width * 3
  const raw = Buffer.allocUnsafe((rowBytes + 1) * height)
  for (let y = 0; y < height; y++) {
    const at = y * (rowBytes + 1)
    raw[at] = 0
    raw.set(pixels.subarray(y * rowBytes, (y + 1) * rowBytes), at + 1)
  }
  const header = Buffer.alloc(13)
  header.writeUInt32BE(width, 0)
  header.writeUInt32BE(height, 4)
  header[8] = BIT_DEPTH
  header[9] = COLOUR_TYPE_RGB
  return Buffer.concat([SIGNATURE, chunk('IHDR', header), chunk('IDAT', deflateSync(raw)), chunk('IEND', Buffer.alloc(0))])
}

function chunk(type: string, data: Buffer): Buffer {
  const out = Buffer.alloc(12 + data.length)
  out.writeUInt32BE(data.length, 0)
  out.write(type, 4, 'latin1')
  data.copy(out, 8)
  out.writeUInt32BE(crc32(out.subarray(4, 8 + data.length)), 8 + data.length)
  return out
}
