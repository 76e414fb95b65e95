import type {AppConnection} from '../vm/app-connection.js'
import type {Deadline} from '../vm/deadline.js'

type Rect = {x: number; y: number; width: number; height: number}

function rectOf(result: Record<string, unknown>): Rect | undefined {
  const rect = result.rect as Partial<Rect> | undefined
  const fields = [rect?.x, rect?.y, rect?.width, rect?.height]
  return fields.every((value) => typeof value === 'number' && Number.isFinite(value)) ? (rect as Rect) : undefined
}

/**
 * Whether the widget's centre (where an ungated tap lands) lies outside the app's viewport, from
 * the screenshot extension's geometry mode (no rasterising). Undefined when the app cannot say.
 */
export async function centreOffScreen(app: AppConnection, ref: string, deadline: Deadline): Promise<boolean | undefined> {
  try {
    const [viewport, widget] = (
      await Promise.all([
        app.callExtension('screenshot', {geometry: 'true'}, deadline),
        app.callExtension('screenshot', {geometry: 'true', ref}, deadline),
      ])
    ).map(rectOf)
    if (!viewport || !widget) return undefined
    const x = widget.x + widget.width / 2
    const y = widget.y + widget.height / 2
    return x < viewport.x || y < viewport.y || x >= viewport.x + viewport.width || y >= viewport.y + viewport.height
  } catch {
    return undefined
  }
}
