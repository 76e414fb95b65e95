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
  readonly reresolved: boolean
}

/** Resolves a ref param (`ref` unless named otherwise) and runs the actionability gate on it. */
export function gatedRef(app: AppModel, params: Params, name = 'ref'): GatedRef {
  const ref = params.required(name)
  const {target, reresolved} = resolveForAction(app, params.verb, ref)
  const live = ensureActionable(app, target, ref, gateOptions(params))
  return {ref, live, viaElement: target.viaElement, reresolved}
}

/** The universal `reresolved` field: the refs that had to be relocated, when there are any. */
export function reresolvedField(...refs: readonly GatedRef[]): {reresolved?: string[]} {
  const relocated = refs.filter((r) => r.reresolved).map((r) => r.ref)
  return relocated.length > 0 ? {reresolved: relocated} : {}
}
