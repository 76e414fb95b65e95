import {postActionSnapshot} from '../action-snapshot.js'
import {tapirError} from '../errors.js'
import {ensureActionable} from '../gate.js'
import {resolveForAction} from '../resolve.js'
import {controlKind} from '../roles.js'
import {textEffect, textTargetFor} from '../text-target.js'
import type {ExtensionHandler} from './extension-handler.js'
import {gateOptions} from './gate-params.js'

/** Empties the controller of the field the ref leads to (gated, focused first), then reads it back after the settle. */
export const clearHandler: ExtensionHandler = {
  name: 'clear',
  wakesFrames: true,
  run(app, params) {
    const ref = params.required('ref')
    const {target, reresolved} = resolveForAction(app, 'clear', ref)
    const kind = target.sem === null ? null : controlKind(target.sem.data)
    if (kind !== null) throw tapirError(`ref ${ref} is a ${kind}, not a text field`, 'unexpected', ref)
    const live = ensureActionable(app, target, ref, gateOptions(params))
    const field = textTargetFor(app, live, target.viaElement)
    if (field === null) throw tapirError(`ext.tapir.clear: no text field at or near ref ${ref}`, 'not_found', ref)
    app.on.focus(field.field)
    app.on.enterText(field.field, '')
    app.pump()
    return {
      ref,
      text: '',
      effect: textEffect(app, field, ''),
      ...(reresolved ? {reresolved: [ref]} : {}),
      ...postActionSnapshot(app, params, false),
    }
  },
}
