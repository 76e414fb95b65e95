import type {AppModel} from './app-model.js'
import {notActionable, staleHandle, suggestionsFor, tapirError} from './errors.js'
import type {Params} from './params.js'
import {runQuery, type Target} from './queries.js'
import {exposedNodes} from './semantics.js'
import {locateSnapshotRef} from './snapshot-refs.js'

/**
 * An action's `ref`: `e<N>` by registry lookup, `q<N>` by re-running its query; anything else,
 * or a token no snapshot or find minted, is not actionable. The ref is noted on the call, so a
 * relocation is reported (`reresolved`) by the first call through it that succeeds.
 */
export function resolveForAction(app: AppModel, params: Params, ref: string): Target {
  params.resolvedRefs.push(ref)
  const query = ref.startsWith('q') ? app.refs.query(ref) : undefined
  if (query !== undefined) {
    const outcome = runQuery(app, query)
    if (outcome.kind === 'none') throw staleHandle(ref, outcome.diagnostic)
    return outcome.target
  }
  if (ref.startsWith('e')) {
    const located = locateSnapshotRef(app, ref)
    if (located.kind === 'defunct') throw notActionable(ref, 'defunct', ' (element no longer mounted)')
    if (located.kind === 'live') return located.target
  }
  throw refNotFound(app, ref)
}

function refNotFound(app: AppModel, ref: string): Error {
  const labels = exposedNodes(app.frame).map((sem) => sem.data.label)
  return tapirError(
    `Widget ref=${ref} is not actionable: not found in registry (take a snapshot and use a ref from it)`,
    'not_found',
    ref,
    suggestionsFor(ref, [...app.refs.activeTokens(), ...labels]),
  )
}
