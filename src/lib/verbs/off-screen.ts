import type {AppConnection} from '../vm/app-connection.js'
import type {Deadline} from '../vm/deadline.js'
import {geometryAnswer} from '../vm/tapir-answers.js'

/**
 * Whether the widget's centre (where an ungated tap lands) lies outside the app's viewport, from
 * the screenshot extension's geometry mode (no rasterising). Undefined when the app cannot say.
 */
export async function centreOffScreen(app: AppConnection, ref: string, deadline: Deadline): Promise<boolean | undefined> {
  const rects = await viewportAndWidget(app, ref, deadline)
  if (!rects) return undefined
  const [viewport, widget] = rects
  const x = widget.x + widget.width / 2
  const y = widget.y + widget.height / 2
  return x < viewport.x || y < viewport.y || x >= viewport.x + viewport.width || y >= viewport.y + viewport.height
}

type Rect = {x: number; y: number; width: number; height: number}

/** The viewport's and the widget's rects from the screenshot extension's geometry mode, or
 *  undefined when the app cannot say. */
async function viewportAndWidget(app: AppConnection, ref: string, deadline: Deadline): Promise<[Rect, Rect] | undefined> {
  try {
    const [viewport, widget] = (
      await Promise.all([
        app.callExtension('screenshot', {geometry: 'true'}, geometryAnswer, deadline),
        app.callExtension('screenshot', {geometry: 'true', ref}, geometryAnswer, deadline),
      ])
    ).map((answer) => answer.rect)
    return viewport && widget ? [viewport, widget] : undefined
  } catch {
    return undefined
  }
}

export type Side = 'left' | 'right' | 'above' | 'below'

/** Where a widget lies outside the viewport: on which side, how far past that edge its near
 *  edge is, and how far its far edge is (what a scroll would have to cover to show it whole). */
export interface OutsideViewport {
  side: Side
  gapPx: number
  farPx: number
}

type Box = {left: number; top: number; right: number; bottom: number}

/** Where `widget` lies outside `viewport`, or undefined while they overlap. */
export function outside(widget: Box, viewport: Box): OutsideViewport | undefined {
  const px = (value: number) => Math.round(value * 10) / 10
  if (widget.left >= viewport.right)
    return {side: 'right', gapPx: px(widget.left - viewport.right), farPx: px(widget.right - viewport.right)}
  if (widget.right <= viewport.left) return {side: 'left', gapPx: px(viewport.left - widget.right), farPx: px(viewport.left - widget.left)}
  if (widget.top >= viewport.bottom)
    return {side: 'below', gapPx: px(widget.top - viewport.bottom), farPx: px(widget.bottom - viewport.bottom)}
  if (widget.bottom <= viewport.top) return {side: 'above', gapPx: px(viewport.top - widget.bottom), farPx: px(viewport.top - widget.top)}
  return undefined
}

const box = (rect: Rect): Box => ({
  left: rect.x,
  top: rect.y,
  right: rect.x + rect.width,
  bottom: rect.y + rect.height,
})

/** Where the widget lies outside the viewport (undefined while it is in it, or the app cannot say). */
export async function outsideViewport(app: AppConnection, ref: string, deadline: Deadline): Promise<OutsideViewport | null | undefined> {
  const rects = await viewportAndWidget(app, ref, deadline)
  if (!rects) return undefined
  return outside(box(rects[1]), box(rects[0])) ?? null
}
