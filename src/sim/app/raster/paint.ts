import type {Frame, Mounted} from '../frame.js'
import {bottom, intersect, right, type Rect} from '../geometry.js'

/** Row-major 8-bit RGB, three bytes a pixel. */
export interface RgbImage {
  readonly width: number
  readonly height: number
  readonly pixels: Uint8Array
}

type Rgb = readonly [number, number, number]

export interface Palette {
  readonly background: Rgb
  readonly surface: Rgb
  readonly button: Rgb
  readonly disabled: Rgb
  readonly field: Rgb
  readonly checked: Rgb
  readonly ink: Rgb
  readonly bar: Rgb
}

/** Each role's colour in the light theme and in the dark one, side by side. */
const THEMES: {readonly [Role in keyof Palette]: readonly [light: string, dark: string]} = {
  background: ['#fafafa', '#1c1c20'],
  surface: ['#ececf0', '#303038'],
  button: ['#d0dcfa', '#3c4c78'],
  disabled: ['#e0e0e0', '#404040'],
  field: ['#ffffff', '#28282e'],
  checked: ['#4664c8', '#96b4ff'],
  ink: ['#282830', '#e6e6ec'],
  bar: ['#e4e4ec', '#2c2c34'],
}

const byte = (hex: string, at: number): number => Number.parseInt(hex.slice(at, at + 2), 16)
const rgb = (hex: string): Rgb => [byte(hex, 1), byte(hex, 3), byte(hex, 5)]

function theme(which: 0 | 1): Palette {
  const colour = (role: keyof Palette): Rgb => rgb(THEMES[role][which])
  return {
    background: colour('background'),
    surface: colour('surface'),
    button: colour('button'),
    disabled: colour('disabled'),
    field: colour('field'),
    checked: colour('checked'),
    ink: colour('ink'),
    bar: colour('bar'),
  }
}

export const LIGHT = theme(0)
export const DARK = theme(1)

/** Colors.black54 over whatever a modal barrier covers. */
export const BARRIER_ALPHA = 0.54
/** A glyph run: about this many logical pixels a character, drawn as a bar through the middle of the line. */
const CHARACTER_WIDTH = 7

/** A frame as the UI thread hands it to the rasteriser: the image's size and its operations in
 *  paint order, each `[op, x0, x1, y0, y1, a, b, c]` over device pixels (columns x0..x1, rows
 *  y0..y1, ends excluded): op 0 fills with the colour (a, b, c), op 1 darkens by the alpha a.
 *  Plain numbers, so another thread can rasterise it. */
export interface DisplayList {
  readonly width: number
  readonly height: number
  readonly ops: number[]
}

const FILL = 0
const DARKEN = 1
const OP_SIZE = 8

/**
 * A flat rendering of one frame: every painted (onstage) widget fills the part of its rect its
 * scroll viewports let through, in paint order, a shade by kind; a Text is a dark bar as long as
 * its data. `region` is in logical pixels and `dpr` device pixels each.
 */
export function paintFrame(frame: Frame, region: Rect, dpr: number, dark: boolean): RgbImage {
  return rasterise(recordFrame(frame, region, dpr, dark))
}

/** What paintFrame paints, recorded from the frame as it is now (cheap: one walk of the tree). */
export function recordFrame(frame: Frame, region: Rect, dpr: number, dark: boolean): DisplayList {
  const width = Math.max(1, Math.round(region.width * dpr))
  const height = Math.max(1, Math.round(region.height * dpr))
  const canvas = new Recorder(width, height, region, dpr)
  const palette = dark ? DARK : LIGHT
  canvas.fill(region, palette.background)
  const visit = (m: Mounted): void => {
    if (m.offstage) return
    paintOne(canvas, m, palette)
    m.children.forEach(visit)
  }
  visit(frame.root)
  return {width, height, ops: canvas.ops}
}

/** The pixels of a display list: a span fill writes one row and copies it down, as a
 *  rasteriser's span fill does, not a call a pixel. */
export function rasterise({width, height, ops}: DisplayList): RgbImage {
  const pixels = new Uint8Array(width * height * 3)
  for (let i = 0; i + OP_SIZE <= ops.length; i += OP_SIZE) {
    const [op = FILL, x0 = 0, x1 = 0, y0 = 0, y1 = 0, a = 0, b = 0, c = 0] = ops.slice(i, i + OP_SIZE)
    if (op === FILL) {
      const first = (y0 * width + x0) * 3
      for (let at = first, end = first + (x1 - x0) * 3; at < end; at += 3) {
        pixels[at] = a
        pixels[at + 1] = b
        pixels[at + 2] = c
      }
      for (let y = y0 + 1; y < y1; y++) pixels.copyWithin((y * width + x0) * 3, first, first + (x1 - x0) * 3)
    } else {
      for (let y = y0; y < y1; y++)
        for (let at = (y * width + x0) * 3, end = (y * width + x1) * 3; at < end; at++) pixels[at] = Math.round((pixels[at] ?? 0) * (1 - a))
    }
  }
  return {width, height, pixels}
}

export type Shade = keyof Palette | 'barrier'

/** How a widget paints, by its own semantics annotation (a merge boundary's merged flags belong
 *  to its controls): `ink` is a Text's glyphs; undefined paints nothing of its own. */
export function shadeOf(m: Mounted): Shade | undefined {
  const {ui} = m
  if (ui.widget === 'ModalBarrier') return 'barrier'
  if (ui.text !== undefined) return 'ink'
  const data = ui.semantics
  if (ui.editable !== undefined) return 'field'
  if (data?.textField) return 'bar'
  if (data?.checked === true || data?.toggled === true) return 'checked'
  if (data?.enabled === false) return 'disabled'
  if (data?.button || ui.onTap !== undefined) return 'button'
  if (ui.widget === 'NavigationBar' || ui.widget === 'NavigationRail' || ui.overlay) return 'bar'
  if (ui.opaque) return ui.route !== undefined ? 'background' : 'surface'
  return undefined
}

function paintOne(canvas: Recorder, m: Mounted, palette: Palette): void {
  const {ui} = m
  const visible = intersect(ui.rect, m.clip)
  if (visible.width <= 0 || visible.height <= 0) return
  const shade = shadeOf(m)
  if (shade === undefined) return
  if (shade === 'barrier') return canvas.darken(visible, BARRIER_ALPHA)
  const colour = colourOf(m, shade, palette)
  if (shade === 'ink') return canvas.fill(intersect(glyphRun(ui.rect, ui.text!), m.clip), colour)
  canvas.fill(visible, colour)
}

/** The widget's own colour (a Text's style.color, a ColoredBox's color) where it sets one, else its shade's. */
export function colourOf(m: Mounted, shade: Exclude<Shade, 'barrier'>, palette: Palette): Rgb {
  return m.ui.color !== undefined ? rgb(m.ui.color) : palette[shade]
}

/** The middle half of a text line, as wide as its characters (at most the box). */
function glyphRun(box: Rect, text: string): Rect {
  const lineHeight = box.height / 2
  return {left: box.left, top: box.top + lineHeight / 2, width: Math.min(box.width, text.length * CHARACTER_WIDTH), height: lineHeight}
}

class Recorder {
  readonly ops: number[] = []

  constructor(
    private readonly width: number,
    private readonly height: number,
    private readonly region: Rect,
    private readonly dpr: number,
  ) {}

  fill(r: Rect, [red, green, blue]: Rgb): void {
    this.push(FILL, r, red, green, blue)
  }

  darken(r: Rect, alpha: number): void {
    this.push(DARKEN, r, alpha, 0, 0)
  }

  /** The device pixels whose centres lie in `r` (logical coordinates); nothing when none. */
  private push(op: number, r: Rect, a: number, b: number, c: number): void {
    const x0 = Math.max(0, Math.round((r.left - this.region.left) * this.dpr))
    const x1 = Math.min(this.width, Math.round((right(r) - this.region.left) * this.dpr))
    const y0 = Math.max(0, Math.round((r.top - this.region.top) * this.dpr))
    const y1 = Math.min(this.height, Math.round((bottom(r) - this.region.top) * this.dpr))
    if (x0 < x1 && y0 < y1) this.ops.push(op, x0, x1, y0, y1, a, b, c)
  }
}
