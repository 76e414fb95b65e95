import type {ExtensionHandler} from './extension-handler.js'

/** SystemNavigator.pop(): answers before the close lands; from then on the desktop app is gone.
 *  On the web it only asks the browser to close the tab, which a tab it did not open ignores:
 *  the app and its debug service stay up. */
export const closeAppHandler: ExtensionHandler = {
  name: 'close_app',
  cites: 'tapir_close_app',
  wakesFrames: false,
  run(app) {
    app.diagnostics.debugPrint('SystemNavigator.pop(): closing the app')
    if (!app.build.web) app.closed = true
    return {closed: true}
  },
}
