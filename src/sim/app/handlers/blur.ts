import {postActionSnapshot} from '../action-snapshot.js'
import {primaryFocus} from '../focus.js'
import type {ExtensionHandler} from './extension-handler.js'

/** Unfocuses whatever holds focus; nothing focused is still a success (`hadFocus: false`). */
export const blurHandler: ExtensionHandler = {
  name: 'blur',
  cites: 'tapir_blur',
  wakesFrames: true,
  run(app, params) {
    const hadFocus = primaryFocus(app) !== null
    app.on.unfocus()
    app.pump()
    return {blurred: true, hadFocus, ...postActionSnapshot(app, params, false)}
  },
}
