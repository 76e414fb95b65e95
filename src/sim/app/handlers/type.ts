import {postActionSnapshot} from '../action-snapshot.js'
import {tapirError} from '../errors.js'
import {ensureActionable} from '../gate.js'
import {resolveForAction} from '../resolve.js'
import {textEffect, textTargetFor} from '../text-target.js'
import type {ExtensionHandler} from './extension-handler.js'
import {gateOptions} from './gate-params.js'

export const typeHandler: ExtensionHandler = {
  name: 'type',
  cites: 'tapir_type',
  wakesFrames: true,
  run(app, params) {
    const ref = params.required('ref')
    const text = params.present('text')
    const target = resolveForAction(app, params, ref)
    const live = ensureActionable(app, target, ref, gateOptions(params))
    const field = textTargetFor(app, live, target.viaElement)
    if (field === null) throw tapirError(`ext.tapir.type: no text field at or near ref ${ref}`, 'not_found', ref)
    app.on.focus(field.field)
    app.on.enterText(field.field, text)
    app.pump()
    return {
      text,
      effect: textEffect(app, field, text),
      ...postActionSnapshot(app, params),
    }
  },
}
