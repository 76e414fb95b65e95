import {deflateSync} from 'node:zlib'
import type {RgbImage} from './paint.js'

const SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])
const BIT_DEPTH = 8
const COLOUR_TYPE_RGB = 2

/** CRC-32 (ISO 3309, reflected polynomial 0xEDB88320), as PNG chunks carry it. */
const CRC_TABLE = (() => {
  const table = new Uint32Array(256)
  for (let n = 0; n < 256; n++) {
    let c = n
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1
    table[n] = c >>> 0
  }
  return table
})()

export function crc32(...parts: readonly Uint8Array[]): number {
  let crc = 0xffffffff
  for (const part of parts) for (const byte of part) crc = CRC_TABLE[(crc ^ byte) & 0xff]! ^ (crc >>> 8)
  return (crc ^ 0xffffffff) >>> 0
}

function chunk(type: string, data: Uint8Array): Buffer {
  const head = Buffer.alloc(8)
  head.writeUInt32BE(data.length, 0)
  head.write(type, 4, 'latin1')
  const tail = Buffer.alloc(4)
  tail.writeUInt32BE(crc32(head.subarray(4), data), 0)
  return Buffer.concat([head, data, tail])
}

/** An 8-bit truecolour PNG: every scanline with filter type 0, the lot deflated into one IDAT. */
export function encodePng(image: RgbImage): Buffer {
  const {width, height, pixels} = image
  const header = Buffer.alloc(13)
  header.writeUInt32BE(width, 0)
  header.writeUInt32BE(height, 4)
  header[8] = BIT_DEPTH
  header[9] = COLOUR_TYPE_RGB
  // compression 0 (deflate), filter method 0, no interlace: bytes 10..12 stay zero.
  const stride = width * 3
  const scanlines = Buffer.alloc((stride + 1) * height)
  for (let y = 0; y < height; y++) {
    const at = y * (stride + 1)
    scanlines[at] = 0
    scanlines.set(pixels.subarray(y * stride, (y + 1) * stride), at + 1)
  }
  return Buffer.concat([SIGNATURE, chunk('IHDR', header), chunk('IDAT', deflateSync(scanlines)), chunk('IEND', new Uint8Array(0))])
}
