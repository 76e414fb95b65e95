import {postActionSnapshot} from '../action-snapshot.js'
import {textEffect} from '../text-target.js'
import type {ExtensionHandler} from './extension-handler.js'
import {writableField} from './writable-field.js'

/** Empties the controller of the field the ref leads to (gated, focused first), then reads it back after the settle. */
export const clearHandler: ExtensionHandler = {
  name: 'clear',
  cites: 'tapir_clear',
  wakesFrames: true,
  run(app, params) {
    const {ref, field} = writableField(app, params)
    app.on.focus(field.field)
    app.on.enterText(field.field, '')
    app.pump()
    return {
      ref,
      text: '',
      effect: textEffect(app, field, ''),
      ...postActionSnapshot(app, params, false),
    }
  },
}
