import type {AppModel} from './app-model.js'
import {notActionable, suggestionsFor, tapirError} from './errors.js'
import {runQuery, type Target} from './queries.js'
import {exposedNodes} from './semantics.js'
import {locateSnapshotRef} from './snapshot-refs.js'

export interface Resolved {
  readonly target: Target
  /** An `e<N>` ref that had to be relocated to the node that replaced its own. */
  readonly reresolved: boolean
}

/** An action's `ref`: `e<N>` by registry lookup, `q<N>` by re-running its query; anything else is not found. */
export function resolveForAction(app: AppModel, verb: string, ref: string): Resolved {
  const query = ref.startsWith('q') ? app.refs.query(ref) : undefined
  if (query !== undefined) {
    const outcome = runQuery(app, query)
    if (outcome.kind === 'none') throw tapirError(`Query handle ref=${ref} is stale: no live match for stored predicates`, 'stale', ref)
    return {target: outcome.target, reresolved: false}
  }
  if (ref.startsWith('e')) {
    const located = locateSnapshotRef(app, ref)
    if (located.kind === 'defunct') throw notActionable(ref, 'defunct', ' (element no longer mounted)')
    if (located.kind === 'live') return {target: located.target, reresolved: located.relocated}
  }
  throw refNotFound(app, verb, ref)
}

function refNotFound(app: AppModel, verb: string, ref: string): Error {
  const labels = exposedNodes(app.frame).map((sem) => sem.data.label)
  return tapirError(
    `ext.tapir.${verb}: ref "${ref}" not found in registry`,
    'not_found',
    ref,
    suggestionsFor(ref, [...app.refs.activeTokens(), ...labels]),
  )
}
