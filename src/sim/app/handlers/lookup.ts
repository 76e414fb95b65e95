import type {AppModel} from '../app-model.js'
import {editableIn} from '../enrichers.js'
import {bounds} from '../geometry.js'
import {runQuery, type Target} from '../queries.js'
import type {Query} from '../refs.js'
import {roleOf} from '../roles.js'
import {locateSnapshotRef} from '../snapshot-refs.js'
import type {ExtensionHandler} from './extension-handler.js'

/**
 * A read that leaves no trace, for a recorder: the widget a ref names now, or the count and the
 * pick of a find's predicates, and the view. Unlike snap, observe and find it mints no ref or
 * handle, relocates and reports no ref, draws no frame and wakes nothing, so the session it
 * looks at sees the same refs, handles and screen as if it had not been called. Not a tool:
 * tapir's recorder calls it when the app registers it (docs/recording.md).
 */
export const lookupHandler: ExtensionHandler = {
  name: 'lookup',
  wakesFrames: false,
  leavesNoTrace: true,
  run(app, params) {
    const view = {width: app.view.width, height: app.view.height, devicePixelRatio: app.view.devicePixelRatio}
    const ref = params.optional('ref')
    if (ref !== undefined) {
      const found = quietly(app, ref)
      return 'target' in found ? {view, widget: described(found.target)} : {view, widget: null, reason: found.reason}
    }
    const query: Query = {
      key: params.optional('key'),
      semanticsLabel: params.optional('semanticsLabel'),
      text: params.optional('text'),
      contains: params.optional('contains'),
      within: params.optional('within'),
    }
    if (query.key === undefined && query.semanticsLabel === undefined && query.text === undefined && query.contains === undefined)
      return {view}
    const outcome = runQuery(app, query, true)
    if (outcome.kind === 'none') return {view, matchCount: 0, widget: null}
    return {view, matchCount: outcome.matchCount, widget: described(outcome.target)}
  },
}

/** What an action would resolve `ref` to, the registry left as it was. */
function quietly(app: AppModel, ref: string): {target: Target} | {reason: 'stale' | 'defunct' | 'not_found'} {
  const query = ref.startsWith('q') ? app.refs.query(ref) : undefined
  if (query !== undefined) {
    const outcome = runQuery(app, query, true)
    return outcome.kind === 'none' ? {reason: 'stale'} : {target: outcome.target}
  }
  if (ref.startsWith('e')) {
    const located = locateSnapshotRef(app, ref, true)
    if (located.kind === 'live') return {target: located.target}
    if (located.kind === 'defunct') return {reason: 'defunct'}
  }
  return {reason: 'not_found'}
}

/** A widget as the recorder compares and names it: `id` is the same for the same widget. */
function described({mounted, sem}: Target): Record<string, unknown> {
  const owner = sem?.owner ?? mounted
  const field = editableIn(owner)
  return {
    id: sem === null ? `element:${mounted.path}` : `node:${sem.id}`,
    role: sem === null ? null : roleOf(sem.data),
    label: sem?.data.label ?? mounted.ui.text ?? '',
    value: sem === null || sem.data.value === '' ? null : sem.data.value,
    bounds: bounds(sem?.data.rect ?? mounted.ui.rect),
    ...(mounted.ui.key === undefined ? {} : {key: mounted.ui.key}),
    textField: sem?.data.textField === true,
    obscured: sem?.data.obscured === true,
    ...(field === null ? {} : {field}),
  }
}
