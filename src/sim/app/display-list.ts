import type {Frame, Mounted} from './frame.js'
import {intersect, type Rect, type View} from './geometry.js'
import {BARRIER_ALPHA, colourOf, DARK, LIGHT, shadeOf} from './raster/paint.js'

/** One painted box: where it is, the part its scroll viewports let through, its colour and text. */
export interface PaintedBox {
  readonly rect: Rect
  readonly visible: Rect
  /** CSS colour of its fill; for a Text, of its glyphs. */
  readonly colour: string
  readonly text?: string
}

/** What the web embedder draws for one frame, in logical (CSS) pixels, in paint order. */
export interface DisplayList {
  readonly frame: number
  readonly view: View
  readonly background: string
  readonly boxes: readonly PaintedBox[]
}

const css = ([r, g, b]: readonly [number, number, number], alpha = 1): string =>
  alpha === 1 ? `rgb(${r}, ${g}, ${b})` : `rgba(${r}, ${g}, ${b}, ${alpha})`

/** The same picture paintFrame rasterises, as boxes the browser draws with real text. */
export function displayList(frame: Frame, frameNumber: number, view: View, dark: boolean): DisplayList {
  const palette = dark ? DARK : LIGHT
  const boxes: PaintedBox[] = []
  const visit = (m: Mounted): void => {
    if (m.offstage) return
    const shade = shadeOf(m)
    const visible = intersect(m.ui.rect, m.clip)
    if (shade !== undefined && visible.width > 0 && visible.height > 0) {
      if (shade === 'barrier') boxes.push({rect: m.ui.rect, visible, colour: css([0, 0, 0], BARRIER_ALPHA)})
      else if (shade === 'ink') boxes.push({rect: m.ui.rect, visible, colour: css(colourOf(m, shade, palette)), text: m.ui.text!})
      else boxes.push({rect: m.ui.rect, visible, colour: css(colourOf(m, shade, palette))})
    }
    m.children.forEach(visit)
  }
  visit(frame.root)
  return {frame: frameNumber, view, background: css(palette.background), boxes}
}
