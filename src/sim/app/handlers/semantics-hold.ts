import {tapirError} from '../errors.js'
import {invalidParams} from '../perf/params.js'
import type {ExtensionHandler} from './extension-handler.js'

/**
 * Releases or re-acquires the semantics handle TapirPlugin keeps for the whole process, so
 * `perf_run --semantics-pass` can measure the app without the tree. A release is refused outside
 * an open perf session; it turns the tree off only when nothing else holds it, and when the
 * platform does, the answer says so and names what holds it.
 */
export const semanticsHoldHandler: ExtensionHandler = {
  name: 'semantics_hold',
  cites: 'Universal response fields: `framesForced`, `warnings`, `reresolved`',
  wakesFrames: false,
  run(app, params) {
    const action = params.optional('action') ?? ''
    if (action === 'release') {
      if (!app.perf.sessionOpen) {
        throw tapirError(
          'ext.tapir.semantics_hold: release is only allowed inside an open perf session, the timed window it exists for; call perf_begin first, and acquire after perf_end',
          'unexpected',
        )
      }
      const released = app.semanticsHandleHeld
      app.semanticsHandleHeld = false
      return {
        action,
        released,
        semanticsEnabled: app.semanticsEnabled,
        heldByPlatform: app.platformHoldsSemantics,
        ...(app.platformHoldsSemantics
          ? {
              reason:
                'on web the engine keeps semantics on once it has received a semantics tree, and this app sent one with its first frame, so the tree stays whatever tapir releases',
            }
          : {}),
      }
    }
    if (action === 'acquire') {
      const acquired = !app.semanticsHandleHeld
      app.semanticsHandleHeld = true
      app.pump()
      return {action, acquired, semanticsEnabled: app.semanticsEnabled, treeReady: app.frame.semRoot.children.length > 0}
    }
    throw invalidParams(`ext.tapir.semantics_hold: action "${action}" is not one of release, acquire`, 'missing_param')
  },
}
