import type {ExtensionHandler} from './extension-handler.js'

/** Pops every popup route (dialogs, menus) above the page. */
export const dismissModalsHandler: ExtensionHandler = {
  name: 'dismiss_modals',
  cites: 'tapir_dismiss_modals',
  wakesFrames: true,
  run(app) {
    const popped = app.state.popups.length
    // One pop per route, so each takes its own focus with it.
    while (app.state.popups.length > 0) app.on.dismissPopup()
    app.pump()
    return {popped}
  },
}
