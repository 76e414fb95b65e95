import type {AppConnection} from '../vm/app-connection.js'
import type {Deadline} from '../vm/deadline.js'
import {geometryAnswer} from '../vm/tapir-answers.js'

/**
 * Whether the widget's centre (where an ungated tap lands) lies outside the app's viewport, from
 * the screenshot extension's geometry mode (no rasterising). Undefined when the app cannot say.
 */
export async function centreOffScreen(app: AppConnection, ref: string, deadline: Deadline): Promise<boolean | undefined> {
  try {
    const [viewport, widget] = (
      await Promise.all([
        app.callExtension('screenshot', {geometry: 'true'}, geometryAnswer, deadline),
        app.callExtension('screenshot', {geometry: 'true', ref}, geometryAnswer, deadline),
      ])
    ).map((answer) => answer.rect)
    if (!viewport || !widget) return undefined
    const x = widget.x + widget.width / 2
    const y = widget.y + widget.height / 2
    return x < viewport.x || y < viewport.y || x >= viewport.x + viewport.width || y >= viewport.y + viewport.height
  } catch {
    return undefined
  }
}
