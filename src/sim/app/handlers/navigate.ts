import {postActionSnapshot} from '../action-snapshot.js'
import {tapirError} from '../errors.js'
import {go, locationOf} from '../router.js'
import type {ExtensionHandler} from './extension-handler.js'

const NOT_HONOURED = 'router did not honor the new route; observed URI did not change. Route may be unregistered or guarded by a redirect.'

/** Dismisses modals, hands the path to the router, and reads the router's location back after the settle. */
export const navigateHandler: ExtensionHandler = {
  name: 'navigate',
  cites: 'tapir_navigate',
  wakesFrames: true,
  run(app, params) {
    const route = params.required('route')
    if (!route.startsWith('/')) throw tapirError(`ext.tapir.navigate: route must start with "/", got "${route}"`, 'unexpected')
    const path = route.split('?')[0]!
    const before = locationOf(app.state)
    app.state.popups = []
    go(app.state, path)
    app.pump()
    const landed = locationOf(app.state)
    const navigated = landed === path || landed.startsWith(`${path}/`)
    const reason = landed === before ? NOT_HONOURED : `router redirected ${path} to ${landed}`
    return {
      navigated,
      route,
      exactPath: landed === path,
      ...(navigated ? {} : {reason}),
      ...postActionSnapshot(app, params),
    }
  },
}
