import {postActionSnapshot} from '../action-snapshot.js'
import {centre} from '../geometry.js'
import {dragBetween} from '../gestures.js'
import type {ExtensionHandler} from './extension-handler.js'
import {gatedRef} from './gated-ref.js'

/** Pointer down at startRef's centre, five moves, up at endRef's centre; both ends pass the gate first. */
export const dragHandler: ExtensionHandler = {
  name: 'drag',
  cites: 'tapir_drag',
  wakesFrames: true,
  run(app, params) {
    params.required('startRef')
    params.required('endRef')
    const start = gatedRef(app, params, 'startRef')
    const end = gatedRef(app, params, 'endRef')
    // Gating the end may have scrolled: aim at where both are now.
    const from = app.frame.byPath.get(start.live.path) ?? start.live
    const to = app.frame.byPath.get(end.live.path) ?? end.live
    dragBetween(app, centre(from.ui.rect), centre(to.ui.rect))
    return {startRef: start.ref, endRef: end.ref, ...postActionSnapshot(app, params)}
  },
}
