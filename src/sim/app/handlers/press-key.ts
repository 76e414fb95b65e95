import {postActionSnapshot} from '../action-snapshot.js'
import {parseKey, parseModifiers, pressKey} from '../keyboard.js'
import type {ExtensionHandler} from './extension-handler.js'

/** KeyDown + KeyUp with the modifiers held around it; no gate. Modifiers are checked before anything is pressed. */
export const pressKeyHandler: ExtensionHandler = {
  name: 'press_key',
  cites: 'tapir_press_key',
  wakesFrames: true,
  run(app, params) {
    const label = params.required('key')
    const modifiers = parseModifiers(params.optional('modifiers'))
    pressKey(app, parseKey(label), modifiers)
    return {ok: true, key: label, ...postActionSnapshot(app, params)}
  },
}
