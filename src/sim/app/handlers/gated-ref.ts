import type {AppModel} from '../app-model.js'
import type {Mounted} from '../frame.js'
import {ensureActionable} from '../gate.js'
import type {Params} from '../params.js'
import {resolveForAction} from '../resolve.js'
import {gateOptions} from './gate-params.js'

export interface GatedRef {
  readonly ref: string
  /** The live widget the gate passed, after any scrolling into view. */
  readonly live: Mounted
  /** Found through the element tree (a key or a `Text`) rather than the semantics tree. */
  readonly viaElement: boolean
}

/** Resolves a ref param (`ref` unless named otherwise) and runs the actionability gate on it. */
export function gatedRef(app: AppModel, params: Params, name = 'ref'): GatedRef {
  const ref = params.required(name)
  const target = resolveForAction(app, params, ref)
  const live = ensureActionable(app, target, ref, gateOptions(params))
  return {ref, live, viaElement: target.viaElement}
}
