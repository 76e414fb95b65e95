import {postActionSnapshot} from '../action-snapshot.js'
import {tapirError} from '../errors.js'
import {ensureActionable} from '../gate.js'
import {resolveForAction} from '../resolve.js'
import {controlKind} from '../roles.js'
import {textEffect, textTargetFor} from '../text-target.js'
import type {ExtensionHandler} from './extension-handler.js'
import {gateOptions} from './gate-params.js'

/** Focus, clear, type and settle in one call; an interactive control that is not a text field is refused. */
export const fillHandler: ExtensionHandler = {
  name: 'fill',
  wakesFrames: true,
  run(app, params) {
    const ref = params.required('ref')
    const text = params.present('text')
    const {target, reresolved} = resolveForAction(app, 'fill', ref)
    const kind = target.sem === null ? null : controlKind(target.sem.data)
    if (kind !== null) throw tapirError(`ref ${ref} is a ${kind}, not a text field`, 'unexpected', ref)
    const live = ensureActionable(app, target, ref, gateOptions(params))
    const field = textTargetFor(app, live, target.viaElement)
    if (field === null) throw tapirError(`ext.tapir.fill: no text field at or near ref ${ref}`, 'not_found', ref)
    app.on.focus(field.field)
    app.on.enterText(field.field, '')
    app.on.enterText(field.field, text)
    app.pump()
    return {
      ref,
      text,
      filled: true,
      effect: textEffect(app, field, text),
      ...(reresolved ? {reresolved: [ref]} : {}),
      ...postActionSnapshot(app, params),
    }
  },
}
