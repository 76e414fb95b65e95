import {postActionSnapshot} from '../action-snapshot.js'
import type {AppModel} from '../app-model.js'
import {centre, type Point} from '../geometry.js'
import type {ExtensionHandler} from './extension-handler.js'
import {gatedRef} from './gated-ref.js'

/**
 * A gated mouse gesture at a widget's live centre: the gate runs once, the gesture settles, then
 * the post-action snapshot (default on). Answers `{ref, ...extra}`.
 */
export function pointerHandler(
  name: string,
  cites: string,
  gesture: (app: AppModel, point: Point) => void,
  extra: Record<string, unknown> = {},
): ExtensionHandler {
  return {
    name,
    cites,
    wakesFrames: true,
    run(app, params) {
      const gated = gatedRef(app, params)
      gesture(app, centre(gated.live.ui.rect))
      return {ref: gated.ref, ...extra, ...postActionSnapshot(app, params)}
    },
  }
}
