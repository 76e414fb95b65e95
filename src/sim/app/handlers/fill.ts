import {postActionSnapshot} from '../action-snapshot.js'
import {textEffect} from '../text-target.js'
import type {ExtensionHandler} from './extension-handler.js'
import {writableField} from './writable-field.js'

/** Focus, clear, type and settle in one call; an interactive control that is not a text field is refused. */
export const fillHandler: ExtensionHandler = {
  name: 'fill',
  cites: 'tapir_fill',
  wakesFrames: true,
  run(app, params) {
    params.required('ref')
    const text = params.present('text')
    const {ref, field} = writableField(app, params)
    app.on.focus(field.field)
    app.on.enterText(field.field, '')
    app.on.enterText(field.field, text)
    app.pump()
    return {
      ref,
      text,
      filled: true,
      effect: textEffect(app, field, text),
      ...postActionSnapshot(app, params),
    }
  },
}
