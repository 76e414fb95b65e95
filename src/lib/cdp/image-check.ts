export type ImageFormat = 'png' | 'jpeg'

const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])
/** Channels per PNG colour type (grey, RGB, palette, grey+alpha, RGBA). */
const PNG_CHANNELS: Readonly<Record<number, number>> = {0: 1, 2: 3, 3: 1, 4: 2, 6: 4}

/** Why `bytes` is not a well-formed image of `format`, or undefined when it is one: every PNG
 *  chunk present with its checksum, the header first and the pixel data inflating to the size
 *  the header gives; every JPEG segment in place from the start marker to the end marker. */
export function imageProblem(bytes: Buffer, format: ImageFormat): string | undefined {
  return format === 'png' ? pngProblem(bytes) : jpegProblem(bytes)
}

function pngProblem(bytes: Buffer): string | undefined {
  // A builtin loaded where used, not at the top: every start-up would pay for it (docs/architecture.md, Start-up).
  const {crc32, inflateSync} = process.getBuiltinModule('node:zlib')
  if (bytes.length < 8 || !bytes.subarray(0, 8).equals(PNG_SIGNATURE)) return 'it does not start with the PNG signature'
  let offset = 8
  let header: {width: number; height: number; depth: number; channels: number; interlaced: boolean} | undefined
  const data: Buffer[] = []
  let ended = false
  while (offset < bytes.length) {
    if (ended) return 'it has bytes after its end chunk'
    if (offset + 12 > bytes.length) return 'it is cut short inside a chunk'
    const length = bytes.readUInt32BE(offset)
    const type = bytes.toString('latin1', offset + 4, offset + 8)
    const end = offset + 12 + length
    if (end > bytes.length) return `it is cut short inside its ${sanitised(type)} chunk`
    if (crc32(bytes.subarray(offset + 4, end - 4)) !== bytes.readUInt32BE(end - 4)) return `its ${sanitised(type)} chunk fails its checksum`
    const body = bytes.subarray(offset + 8, end - 4)
    if (!header && type !== 'IHDR') return 'its first chunk is not the header (IHDR)'
    if (type === 'IHDR') {
      if (header || length !== 13) return 'it has a malformed header (IHDR)'
      const [width, height, channels] = [body.readUInt32BE(0), body.readUInt32BE(4), PNG_CHANNELS[body.readUInt8(9)]]
      if (width === 0 || height === 0 || channels === undefined) return 'its header (IHDR) describes no image'
      header = {width, height, depth: body.readUInt8(8), channels, interlaced: body.readUInt8(12) === 1}
    } else if (type === 'IDAT') data.push(body)
    else if (type === 'IEND') ended = true
    offset = end
  }
  if (!header || !ended) return 'it has no end chunk (IEND)'
  if (data.length === 0) return 'it has no pixel data (IDAT)'
  const rowBytes = Math.ceil((header.width * header.channels * header.depth) / 8)
  const expected = header.height * (1 + rowBytes)
  // Adam7 adds a filter byte and padding per row of each of its seven passes.
  const limit = header.interlaced ? expected + 7 * (header.height + 8) : expected
  let raw: Buffer
  try {
    raw = inflateSync(Buffer.concat(data), {maxOutputLength: limit + 1})
  } catch {
    return 'its pixel data does not inflate'
  }
  if (header.interlaced ? raw.length > limit : raw.length !== expected) return 'its pixel data is not the size its header gives'
  return undefined
}

/** Markers that stand alone, with no length: TEM and the restart markers. */
const STANDALONE = new Set([0x01, 0xd0, 0xd1, 0xd2, 0xd3, 0xd4, 0xd5, 0xd6, 0xd7])
/** Start-of-frame markers (every coding but DHT 0xC4, JPG 0xC8 and DAC 0xCC). */
const FRAME = new Set([0xc0, 0xc1, 0xc2, 0xc3, 0xc5, 0xc6, 0xc7, 0xc9, 0xca, 0xcb, 0xcd, 0xce, 0xcf])

function jpegProblem(bytes: Buffer): string | undefined {
  if (bytes.length < 4 || bytes[0] !== 0xff || bytes[1] !== 0xd8 || bytes[2] !== 0xff) return 'it does not start with a JPEG marker'
  let offset = 2
  let frame = false
  let scan = false
  while (offset < bytes.length) {
    if (bytes[offset] !== 0xff) return 'a segment does not start with a marker'
    while (bytes[offset] === 0xff) offset++ // fill bytes
    const marker = bytes[offset++]
    if (marker === undefined) return 'it is cut short after a marker'
    if (marker === 0xd9)
      return !frame || !scan
        ? 'it ends before its frame and scan'
        : offset === bytes.length
          ? undefined
          : 'it has bytes after its end marker'
    if (marker === 0xd8 || marker === 0x00) return 'it has a misplaced marker'
    if (STANDALONE.has(marker)) continue
    if (offset + 2 > bytes.length) return 'it is cut short inside a segment'
    const length = bytes.readUInt16BE(offset)
    if (length < 2 || offset + length > bytes.length) return 'it is cut short inside a segment'
    if (FRAME.has(marker)) {
      if (length < 8 || bytes.readUInt16BE(offset + 3) === 0 || bytes.readUInt16BE(offset + 5) === 0 || bytes[offset + 7] === 0)
        return 'its frame header describes no image'
      frame = true
    }
    offset += length
    if (marker === 0xda) {
      if (!frame) return 'it has a scan before its frame header'
      scan = true
      // Entropy-coded data runs to the next marker that is neither a stuffed 0xFF00 nor a restart.
      while (offset < bytes.length && !(bytes[offset] === 0xff && bytes[offset + 1] !== 0x00 && !isRestart(bytes[offset + 1]))) offset++
    }
  }
  return 'it has no end marker'
}

const isRestart = (byte: number | undefined): boolean => byte !== undefined && byte >= 0xd0 && byte <= 0xd7

/** A chunk type as read from the file: four letters, or a placeholder when it is not. */
const sanitised = (type: string): string => (/^[A-Za-z]{4}$/.test(type) ? type : 'unnamed')
