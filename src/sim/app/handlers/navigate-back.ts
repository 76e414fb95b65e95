import {postActionSnapshot} from '../action-snapshot.js'
import type {AppModel} from '../app-model.js'
import type {ExtensionHandler} from './extension-handler.js'

/** Pops the outermost navigator that can pop: the root's pageless routes first, then the visible branch's stack. */
export const navigateBackHandler: ExtensionHandler = {
  name: 'navigate_back',
  cites: 'tapir_navigate_back',
  wakesFrames: true,
  run(app, params) {
    const popped = popOutermost(app)
    app.pump()
    return {navigatedBack: popped, popped, ...postActionSnapshot(app, params)}
  },
}

export function popOutermost(app: AppModel): boolean {
  const {state} = app
  if (state.popups.length > 0) {
    app.on.dismissPopup()
    return true
  }
  if (state.root.kind === 'shell' && state.root.shell.branch === 'monitors' && state.root.shell.detail !== null) {
    app.on.closeMonitor()
    return true
  }
  return false
}
