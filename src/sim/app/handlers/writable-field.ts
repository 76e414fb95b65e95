import type {AppModel} from '../app-model.js'
import {tapirError} from '../errors.js'
import {ensureActionable} from '../gate.js'
import type {Params} from '../params.js'
import {resolveForAction} from '../resolve.js'
import {controlKind} from '../roles.js'
import {textTargetFor, type TextTarget} from '../text-target.js'
import {gateOptions} from './gate-params.js'

export interface WritableField {
  readonly ref: string
  readonly field: TextTarget
}

/** The text field fill or clear writes: the `ref` param resolved, refused when it is an
 *  interactive control of another kind, gated, then the field at or near it. */
export function writableField(app: AppModel, params: Params): WritableField {
  const ref = params.required('ref')
  const target = resolveForAction(app, params, ref)
  const kind = target.sem === null ? null : controlKind(target.sem.data)
  if (kind !== null) throw tapirError(`ref ${ref} is a ${kind}, not a text field`, 'unexpected', ref)
  const live = ensureActionable(app, target, ref, gateOptions(params))
  const field = textTargetFor(app, live, target.viaElement)
  if (field === null) throw tapirError(`ext.tapir.${params.verb}: no text field at or near ref ${ref}`, 'not_found', ref)
  return {ref, field}
}
