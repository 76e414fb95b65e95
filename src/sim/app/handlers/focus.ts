import {postActionSnapshot} from '../action-snapshot.js'
import {tapirError} from '../errors.js'
import {focusTargetOf} from '../focus.js'
import type {ExtensionHandler} from './extension-handler.js'
import {gatedRef} from './gated-ref.js'

/** requestFocus() on the nearest Focus: a text field's, else the control at or above the ref. Gated like fill's focus step. */
export const focusHandler: ExtensionHandler = {
  name: 'focus',
  cites: 'tapir_focus',
  wakesFrames: true,
  run(app, params) {
    const gated = gatedRef(app, params)
    const target = focusTargetOf(gated.live)
    if (target === null)
      throw tapirError(`ext.tapir.focus: ref ${gated.ref} has no focusable widget at or above it`, 'not_found', gated.ref)
    if ('field' in target) app.on.focus(target.field)
    else app.on.focusControl(target.control.path)
    app.pump()
    return {ref: gated.ref, focused: true, ...postActionSnapshot(app, params, false)}
  },
}
