import type {ExtensionHandler} from './extension-handler.js'

/** SystemNavigator.pop(): answers before the close lands; from then on the desktop app is gone. */
export const closeAppHandler: ExtensionHandler = {
  name: 'close_app',
  wakesFrames: false,
  run(app) {
    app.diagnostics.debugPrint('SystemNavigator.pop(): closing the app')
    app.closed = true
    return {closed: true}
  },
}
