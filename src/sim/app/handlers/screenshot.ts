import type {AppModel} from '../app-model.js'
import {tapirError} from '../errors.js'
import {hasArea, intersect, rect, type Rect} from '../geometry.js'
import type {Params} from '../params.js'
import {recordFrame} from '../raster/paint.js'
import {encodeFrame} from '../raster/raster-thread.js'
import {resolveForAction} from '../resolve.js'
import type {ExtensionHandler} from './extension-handler.js'

const DEFAULT_QUALITY = 70

/**
 * The app-root viewport, or one widget's rect (`ref`, optionally narrowed by `rect` relative to
 * its top-left), rasterised at the device pixel ratio. `geometry: "true"` answers the rect and
 * the ratio without rasterising.
 */
export const screenshotHandler: ExtensionHandler = {
  name: 'screenshot',
  cites: 'tapir_screenshot',
  wakesFrames: true,
  async run(app, params) {
    const format = formatOf(params)
    const quality = Math.min(100, Math.max(0, params.int('quality', DEFAULT_QUALITY)))
    app.pump()
    const region = regionOf(app, params)
    if (params.bool('geometry', false)) {
      return {
        rect: {x: region.left, y: region.top, width: region.width, height: region.height},
        devicePixelRatio: app.view.devicePixelRatio,
      }
    }
    // The frame is recorded now; the pixels come from the raster thread, and other calls are
    // answered meanwhile (raster-thread.ts).
    const list = recordFrame(app.frame, region, app.view.devicePixelRatio, app.state.settings.darkMode)
    const {bytes, width, height} = await encodeFrame(list, format, quality)
    return {format, base64: Buffer.from(bytes).toString('base64'), width, height}
  },
}

function formatOf(params: Params): 'jpeg' | 'png' {
  const raw = (params.optional('format') ?? 'jpeg').toLowerCase()
  if (raw === 'png') return 'png'
  if (raw === 'jpeg' || raw === 'jpg') return 'jpeg'
  throw tapirError(`ext.tapir.screenshot: format must be "jpeg" or "png", got "${raw}"`, 'unexpected')
}

/** The logical rect to capture: the viewport, the ref's live rect, or a sub-rect of it clipped to the widget. */
function regionOf(app: AppModel, params: Params): Rect {
  const ref = params.optional('ref')
  const sub = params.optional('rect')
  if (ref === undefined) {
    if (sub !== undefined) {
      throw tapirError(
        'ext.tapir.screenshot: rect is relative to a widget, so it needs ref; omit both to capture the whole viewport',
        'missing_param',
      )
    }
    return app.frame.root.ui.rect
  }
  const target = resolveForAction(app, params, ref)
  const widget = (app.frame.byPath.get(target.mounted.path) ?? target.mounted).ui.rect
  if (!hasArea(widget))
    throw tapirError(`ext.tapir.screenshot: ref ${ref} has a zero-size rect; there is nothing to capture`, 'zero_rect', ref)
  if (sub === undefined) return widget
  const [x, y, w, h] = parseRect(sub, ref)
  const region = intersect(rect(widget.left + x, widget.top + y, w, h), widget)
  if (!hasArea(region))
    throw tapirError(`ext.tapir.screenshot: rect "${sub}" lies outside ref ${ref} (${widget.width}x${widget.height})`, 'zero_rect', ref)
  return region
}

function parseRect(text: string, ref: string): [number, number, number, number] {
  const parts = text.split(',').map((part) => part.trim())
  const values = parts.map(Number)
  if (
    parts.length !== 4 ||
    parts.some((part) => part === '') ||
    values.some((v) => !Number.isFinite(v)) ||
    values[2]! <= 0 ||
    values[3]! <= 0
  ) {
    throw tapirError(
      `ext.tapir.screenshot: rect takes "x,y,w,h" in logical pixels with a positive width and height, got "${text}"`,
      'unexpected',
      ref,
    )
  }
  return values as [number, number, number, number]
}
