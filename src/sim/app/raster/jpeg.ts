import type {RgbImage} from './paint.js'

/**
 * A small baseline (SOF0) JPEG encoder: YCbCr without subsampling, 8x8 forward DCT, the
 * Annex K quantisation tables scaled by quality the way libjpeg does, and flat Huffman tables
 * (every DC category a 4-bit code, every AC run/size symbol an 8-bit one). Flat tables compress
 * less than the Annex K ones but are valid for any decoder, and this app's screens are mostly
 * flat colour, where each block codes to little more than its DC term and an end-of-block.
 */

const LUMA_QUANT = [
  16, 11, 10, 16, 24, 40, 51, 61, 12, 12, 14, 19, 26, 58, 60, 55, 14, 13, 16, 24, 40, 57, 69, 56, 14, 17, 22, 29, 51, 87, 80, 62,
  18, 22, 37, 56, 68, 109, 103, 77, 24, 35, 55, 64, 81, 104, 113, 92, 49, 64, 78, 87, 103, 121, 120, 101, 72, 92, 95, 98, 112, 100,
  103, 99,
]

const CHROMA_QUANT = (() => {
  const table = new Array<number>(64).fill(99)
  const head = [17, 18, 24, 47, 18, 21, 26, 66, 24, 26, 56, 99, 47, 66, 99, 99]
  for (let i = 0; i < 16; i++) table[Math.floor(i / 4) * 8 + (i % 4)] = head[i]!
  return table
})()

/** Zigzag position → natural (row-major) index in the 8x8 block. */
const ZIGZAG = (() => {
  const order: number[] = []
  for (let sum = 0; sum < 15; sum++) {
    const rows: number[] = []
    for (let row = Math.max(0, sum - 7); row <= Math.min(7, sum); row++) rows.push(row)
    if (sum % 2 === 0) rows.reverse()
    for (const row of rows) order.push(row * 8 + (sum - row))
  }
  return order
})()

/** c[u*8 + x] = C(u)/2 · cos((2x+1)uπ/16), so F = c · f · cᵀ is the JPEG forward DCT. */
const DCT = (() => {
  const c = new Float64Array(64)
  for (let u = 0; u < 8; u++) {
    const scale = u === 0 ? Math.SQRT1_2 / 2 : 0.5
    for (let x = 0; x < 8; x++) c[u * 8 + x] = scale * Math.cos(((2 * x + 1) * u * Math.PI) / 16)
  }
  return c
})()

const DC_SYMBOLS = Array.from({length: 12}, (_, category) => category)
const DC_CODE_LENGTH = 4
const EOB = 0x00
const ZRL = 0xf0
const AC_SYMBOLS = [EOB, ...Array.from({length: 16 * 10}, (_, i) => ((i / 10) << 4) | ((i % 10) + 1)), ZRL]
const AC_CODE_LENGTH = 8
/** Flat codes: a symbol's code is its position in the table's value list. */
const AC_CODE = new Map(AC_SYMBOLS.map((symbol, index) => [symbol, index]))

/** libjpeg's quality scaling of a base table (quality 0 counts as 1). */
function scaledTable(base: readonly number[], quality: number): number[] {
  const q = Math.min(100, Math.max(1, Math.round(quality)))
  const scale = q < 50 ? 5000 / q : 200 - 2 * q
  return base.map(v => Math.min(255, Math.max(1, Math.floor((v * scale + 50) / 100))))
}

class BitWriter {
  private readonly bytes: number[] = []
  private buffer = 0
  private count = 0

  write(value: number, length: number): void {
    for (let i = length - 1; i >= 0; i--) {
      this.buffer = (this.buffer << 1) | ((value >> i) & 1)
      if (++this.count === 8) this.flushByte()
    }
  }

  /** Pads the last byte with 1 bits, as the standard asks. */
  finish(): Uint8Array {
    if (this.count > 0) this.write(0xff, 8 - this.count)
    return Uint8Array.from(this.bytes)
  }

  private flushByte(): void {
    this.bytes.push(this.buffer)
    if (this.buffer === 0xff) this.bytes.push(0x00)
    this.buffer = 0
    this.count = 0
  }
}

const category = (v: number): number => (v === 0 ? 0 : 32 - Math.clz32(Math.abs(v)))
/** The magnitude bits: the value itself when positive, its ones' complement in `size` bits when negative. */
const magnitudeBits = (v: number, size: number): number => (v >= 0 ? v : v + (1 << size) - 1)

function segment(marker: number, body: readonly number[]): number[] {
  const length = body.length + 2
  return [0xff, marker, length >> 8, length & 0xff, ...body]
}

const u16 = (n: number): number[] => [n >> 8, n & 0xff]

function huffmanTable(tableClass: number, id: number, symbols: readonly number[], codeLength: number): number[] {
  const bits = new Array<number>(16).fill(0)
  bits[codeLength - 1] = symbols.length
  return [(tableClass << 4) | id, ...bits, ...symbols]
}

export function encodeJpeg(image: RgbImage, quality: number): Buffer {
  const {width, height} = image
  const tables = [scaledTable(LUMA_QUANT, quality), scaledTable(CHROMA_QUANT, quality)]
  const planes = toYCbCr(image)
  const writer = new BitWriter()
  const previousDc = [0, 0, 0]
  const samples = new Float64Array(64)
  const coefficients = new Int32Array(64)
  for (let by = 0; by < height; by += 8) {
    for (let bx = 0; bx < width; bx += 8) {
      for (let component = 0; component < 3; component++) {
        loadBlock(planes[component]!, width, height, bx, by, samples)
        forwardDct(samples, tables[component === 0 ? 0 : 1]!, coefficients)
        previousDc[component] = encodeBlock(writer, coefficients, previousDc[component]!)
      }
    }
  }
  const header = [
    0xff, 0xd8,
    ...segment(0xe0, [0x4a, 0x46, 0x49, 0x46, 0x00, 1, 1, 0, ...u16(1), ...u16(1), 0, 0]),
    ...segment(0xdb, [0x00, ...ZIGZAG.map(i => tables[0]![i]!)]),
    ...segment(0xdb, [0x01, ...ZIGZAG.map(i => tables[1]![i]!)]),
    ...segment(0xc0, [8, ...u16(height), ...u16(width), 3, 1, 0x11, 0, 2, 0x11, 1, 3, 0x11, 1]),
    ...segment(0xc4, [...huffmanTable(0, 0, DC_SYMBOLS, DC_CODE_LENGTH), ...huffmanTable(1, 0, AC_SYMBOLS, AC_CODE_LENGTH)]),
    ...segment(0xda, [3, 1, 0x00, 2, 0x00, 3, 0x00, 0, 63, 0]),
  ]
  return Buffer.concat([Uint8Array.from(header), writer.finish(), Uint8Array.from([0xff, 0xd9])])
}

/** JFIF's full-range BT.601 conversion, into three planes. */
function toYCbCr(image: RgbImage): Float64Array[] {
  const count = image.width * image.height
  const y = new Float64Array(count)
  const cb = new Float64Array(count)
  const cr = new Float64Array(count)
  const p = image.pixels
  for (let i = 0; i < count; i++) {
    const r = p[i * 3]!
    const g = p[i * 3 + 1]!
    const b = p[i * 3 + 2]!
    y[i] = 0.299 * r + 0.587 * g + 0.114 * b
    cb[i] = -0.168736 * r - 0.331264 * g + 0.5 * b + 128
    cr[i] = 0.5 * r - 0.418688 * g - 0.081312 * b + 128
  }
  return [y, cb, cr]
}

/** One 8x8 block, level-shifted; past the right or bottom edge the last column or row repeats. */
function loadBlock(plane: Float64Array, width: number, height: number, bx: number, by: number, out: Float64Array): void {
  for (let y = 0; y < 8; y++) {
    const row = Math.min(by + y, height - 1) * width
    for (let x = 0; x < 8; x++) out[y * 8 + x] = plane[row + Math.min(bx + x, width - 1)]! - 128
  }
}

/** F = c · f · cᵀ, then quantised and laid out in zigzag order. A flat block has only its DC term. */
function forwardDct(f: Float64Array, quant: readonly number[], out: Int32Array): void {
  out.fill(0)
  const first = f[0]!
  if (f.every(v => v === first)) {
    out[0] = clampCoefficient(Math.round((8 * first) / quant[0]!), 2047)
    return
  }
  const rows = new Float64Array(64)
  for (let y = 0; y < 8; y++) {
    for (let v = 0; v < 8; v++) {
      let sum = 0
      for (let x = 0; x < 8; x++) sum += DCT[v * 8 + x]! * f[y * 8 + x]!
      rows[y * 8 + v] = sum
    }
  }
  for (let k = 0; k < 64; k++) {
    const natural = ZIGZAG[k]!
    const u = natural >> 3
    const v = natural & 7
    let sum = 0
    for (let y = 0; y < 8; y++) sum += DCT[u * 8 + y]! * rows[y * 8 + v]!
    out[k] = clampCoefficient(Math.round(sum / quant[natural]!), k === 0 ? 2047 : 1023)
  }
}

const clampCoefficient = (v: number, limit: number): number => Math.max(-limit, Math.min(limit, v))

/** Huffman-codes one block (zigzag order) and answers its DC value for the next block's difference. */
function encodeBlock(writer: BitWriter, coefficients: Int32Array, previousDc: number): number {
  const dc = coefficients[0]!
  const diff = dc - previousDc
  const dcSize = category(diff)
  writer.write(dcSize, DC_CODE_LENGTH)
  if (dcSize > 0) writer.write(magnitudeBits(diff, dcSize), dcSize)
  let run = 0
  for (let k = 1; k < 64; k++) {
    const v = coefficients[k]!
    if (v === 0) {
      run++
      continue
    }
    while (run > 15) {
      writer.write(AC_CODE.get(ZRL)!, AC_CODE_LENGTH)
      run -= 16
    }
    const size = category(v)
    writer.write(AC_CODE.get((run << 4) | size)!, AC_CODE_LENGTH)
    writer.write(magnitudeBits(v, size), size)
    run = 0
  }
  if (run > 0) writer.write(AC_CODE.get(EOB)!, AC_CODE_LENGTH)
  return dc
}
