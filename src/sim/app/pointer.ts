import type {AppModel} from './app-model.js'
import type {Point} from './geometry.js'
import {hitTest, tapHandler} from './hit-test.js'

/** Pointer down + up at a point: the handler the hit reaches runs, then the frame settles. */
export function tapAt(app: AppModel, point: Point): void {
  tapHandler(hitTest(app.frame, point))?.()
  app.pump()
}
