/** A rectangle in logical pixels, global coordinates (origin top-left of the view). */
export interface Rect {
  readonly left: number
  readonly top: number
  readonly width: number
  readonly height: number
}

export interface Point {
  readonly x: number
  readonly y: number
}

/** What the embedder tells the app about its window (Flutter's FlutterView): logical size, pixel ratio, touch. */
export interface View {
  readonly width: number
  readonly height: number
  readonly devicePixelRatio: number
  readonly touch: boolean
}

/** The view before an embedder reports one: a phone-sized desktop window on a HiDPI display. */
export const DEFAULT_VIEW: View = {width: 400, height: 800, devicePixelRatio: 2, touch: false}

/** Material's "expanded" window class starts here: a navigation rail, and list and detail side by side. */
export const WIDE_FROM = 840

export const viewRect = (view: View): Rect => ({left: 0, top: 0, width: view.width, height: view.height})

export function rect(left: number, top: number, width: number, height: number): Rect {
  return {left, top, width, height}
}

export const right = (r: Rect): number => r.left + r.width
export const bottom = (r: Rect): number => r.top + r.height
export const centre = (r: Rect): Point => ({x: r.left + r.width / 2, y: r.top + r.height / 2})
export const hasArea = (r: Rect): boolean => r.width > 0 && r.height > 0

export function contains(r: Rect, p: Point): boolean {
  return p.x >= r.left && p.x < right(r) && p.y >= r.top && p.y < bottom(r)
}

/** Flutter's Rect.overlaps: strict on every side, so a zero-area rect overlaps nothing. */
export function overlaps(a: Rect, b: Rect): boolean {
  return a.left < right(b) && right(a) > b.left && a.top < bottom(b) && bottom(a) > b.top
}

export function encloses(outer: Rect, inner: Rect): boolean {
  return inner.left >= outer.left && right(inner) <= right(outer) && inner.top >= outer.top && bottom(inner) <= bottom(outer)
}

export function intersect(a: Rect, b: Rect): Rect {
  const left = Math.max(a.left, b.left)
  const top = Math.max(a.top, b.top)
  const width = Math.max(0, Math.min(right(a), right(b)) - left)
  const height = Math.max(0, Math.min(bottom(a), bottom(b)) - top)
  return {left, top, width, height}
}

export function overlapArea(a: Rect, b: Rect): number {
  const i = intersect(a, b)
  return i.width * i.height
}

export function translate(r: Rect, dx: number, dy: number): Rect {
  return {left: r.left + dx, top: r.top + dy, width: r.width, height: r.height}
}

/** The `{x, y, w, h}` object observe and tapOwner use. */
export const bounds = (r: Rect): {x: number; y: number; w: number; h: number} => ({x: r.left, y: r.top, w: r.width, h: r.height})

/** Dart's `double.toString()` for the values a layout produces: `12.0`, `12.5`. */
export function dartDouble(n: number): string {
  return Number.isInteger(n) ? `${n}.0` : String(n)
}

/** Flutter's `Rect.toString()`: `Rect.fromLTRB(0.0, 0.0, 400.0, 800.0)` (one decimal). */
export function dartRect(r: Rect): string {
  const f = (n: number): string => n.toFixed(1)
  return `Rect.fromLTRB(${f(r.left)}, ${f(r.top)}, ${f(right(r))}, ${f(bottom(r))})`
}
