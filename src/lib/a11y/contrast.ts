// Text contrast as flutter_test measures it (flutter/flutter
// packages/flutter_test/lib/src/accessibility.dart at 33fe4088762fa96815441272a375bee054dc1c52:
// MinimumTextContrastGuideline, _ContrastReport, _colorsWithinRect). docs/a11y.md cites each step.

/** WCAG: text of 18 or more is large; bold text is large from 14 (kLargeTextMinimumSize, kBoldTextMinimumSize). */
export const LARGE_TEXT_SIZE = 18
export const BOLD_LARGE_TEXT_SIZE = 14
/** kMinimumRatioNormalText and kMinimumRatioLargeText. */
export const NORMAL_TEXT_RATIO = 4.5
export const LARGE_TEXT_RATIO = 3.0
/** _kDefaultFontSize: the size assumed when the style sets none. */
export const DEFAULT_FONT_SIZE = 12.0
/** _tolerance: a ratio this far below the target still passes. */
export const TOLERANCE = -0.01

/** targetContrastRatio: 3.0 for large text (bold at 14 or more, or 18 or more), else 4.5. */
export function targetRatio(fontSize: number | undefined, bold: boolean): number {
  const size = fontSize ?? DEFAULT_FONT_SIZE
  return (bold && size >= BOLD_LARGE_TEXT_SIZE) || size >= LARGE_TEXT_SIZE ? LARGE_TEXT_RATIO : NORMAL_TEXT_RATIO
}

export const passes = (ratio: number, target: number): boolean => ratio - target >= TOLERANCE

/** A decoded screenshot: row-major RGBA, four bytes a pixel. */
export interface RgbaImage {
  width: number
  height: number
  data: Uint8Array
}

/** Pixel colours as 0xRRGGBBAA, with how many pixels have each. */
export type Histogram = Map<number, number>

/** _colorsWithinRect: the rect (image pixels) clipped to the image, widened to whole pixels
 *  (floor of the left and top, ceiling of the right and bottom), every pixel counted by colour. */
export function histogram(image: RgbaImage, left: number, top: number, right: number, bottom: number): Histogram {
  const x0 = Math.floor(Math.max(0, left))
  const x1 = Math.ceil(Math.min(image.width, right))
  const y0 = Math.floor(Math.max(0, top))
  const y1 = Math.ceil(Math.min(image.height, bottom))
  const counts: Histogram = new Map()
  for (let x = x0; x < x1; x++) {
    for (let y = y0; y < y1; y++) {
      const at = (y * image.width + x) * 4
      const rgba = ((image.data[at]! << 24) | (image.data[at + 1]! << 16) | (image.data[at + 2]! << 8) | image.data[at + 3]!) >>> 0
      counts.set(rgba, (counts.get(rgba) ?? 0) + 1)
    }
  }
  return counts
}

const channels = (rgba: number): [number, number, number] => [(rgba >>> 24) & 0xff, (rgba >>> 16) & 0xff, (rgba >>> 8) & 0xff]

/** HSLColor.fromColor(c).lightness: the mean of the largest and smallest channel, 0 to 1. */
export function lightness(rgba: number): number {
  const rgb = channels(rgba).map((c) => c / 255)
  return (Math.max(...rgb) + Math.min(...rgb)) / 2
}

/** Color.computeLuminance: WCAG relative luminance (sRGB channels linearised, 0.03928 knee). */
export function luminance(rgba: number): number {
  const [r, g, b] = channels(rgba).map((c) => {
    const v = c / 255
    return v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4
  }) as [number, number, number]
  return 0.2126 * r + 0.7152 * g + 0.0722 * b
}

export interface ContrastReport {
  light: number
  dark: number
  ratio: number
  /** How many colours the rect held (1: a flat rect, reported light and dark alike). */
  colours: number
}

/** _ContrastReport: split the colours at the pixel-weighted mean lightness; the most frequent
 *  colour at or below it is dark, above it light; a side left empty takes the other's colour.
 *  The ratio is WCAG's, (light + 0.05) / (dark + 0.05). Undefined for an empty histogram. */
export function contrastReport(counts: Histogram): ContrastReport | undefined {
  let total = 0
  let weighted = 0
  for (const [colour, count] of counts) {
    weighted += lightness(colour) * count
    total += count
  }
  if (total === 0) return undefined
  const mean = weighted / total
  let light: [number, number] | undefined
  let dark: [number, number] | undefined
  for (const [colour, count] of counts) {
    if (lightness(colour) <= mean) {
      if (count > (dark?.[1] ?? 0)) dark = [colour, count]
    } else if (count > (light?.[1] ?? 0)) light = [colour, count]
  }
  const lightColour = (light ?? dark)![0]
  const darkColour = (dark ?? light)![0]
  return {
    light: lightColour,
    dark: darkColour,
    ratio: (luminance(lightColour) + 0.05) / (luminance(darkColour) + 0.05),
    colours: counts.size,
  }
}

/** #rrggbb of a 0xRRGGBBAA colour. */
export const hex = (rgba: number): string => `#${(rgba >>> 8).toString(16).padStart(6, '0')}`
