import type {AppModel} from '../app-model.js'
import {suggestionsFor, tapirError} from '../errors.js'
import type {SemNode} from '../frame.js'
import {locateSnapshotRef} from '../snapshot-refs.js'
import {renderSnapshot} from '../snapshot-yaml.js'
import type {ExtensionHandler} from './extension-handler.js'

const RECENT_RENDER_ERRORS = 3

export const snapHandler: ExtensionHandler = {
  name: 'snap',
  cites: 'tapir_snap',
  wakesFrames: true,
  run(app, params) {
    const withinRef = params.optional('within')
    const depth = params.int('depth')
    const interactiveOnly = params.bool('interactiveOnly', false)
    const grep = params.optional('grep')
    const includeEnrichers = params.bool('includeEnrichers', false)
    const within = withinRef === undefined ? undefined : scopeOf(app, withinRef)
    const {yaml, grepLiteral} = renderSnapshot(app, {depth, within, interactiveOnly, grep, includeEnrichers})
    const plain = within === undefined && depth === undefined && !interactiveOnly && grep === undefined && !includeEnrichers
    if (plain) app.baseline = yaml
    return {
      snapshot: yaml,
      groupId: app.nextGroupId(),
      ...(grepLiteral ? {grepLiteral: true} : {}),
      ...renderErrors(app),
    }
  },
}

/** `within` names a region by an `e<N>` ref; an unknown or detached ref is an error, never a widening. */
function scopeOf(app: AppModel, ref: string): SemNode {
  if (ref.startsWith('q')) {
    throw tapirError(
      `ext.tapir.snap: within takes an e<N> ref from a snapshot; the q<N> handle "${ref}" is not addressable here`,
      'not_found',
      ref,
    )
  }
  const located = locateSnapshotRef(app, ref)
  if (located.kind === 'unknown') {
    throw tapirError(
      `ext.tapir.snap: within ref "${ref}" not found in registry`,
      'not_found',
      ref,
      suggestionsFor(ref, app.refs.activeTokens()),
    )
  }
  const sem = located.kind === 'live' ? app.frame.semByOwner.get(located.target.mounted.path) : undefined
  if (sem === undefined)
    throw tapirError(`ext.tapir.snap: within ref "${ref}" is no longer in the semantics tree; re-snap for a fresh ref`, 'stale', ref)
  return sem
}

function renderErrors(app: AppModel): {renderErrors?: Record<string, unknown>} {
  const captured = [...app.diagnostics.errors].reverse()
  if (captured.length === 0) return {}
  return {
    renderErrors: {
      count: captured.length,
      recent: captured.slice(0, RECENT_RENDER_ERRORS).map((e) => ({type: e.type, message: e.message.split('\n')[0]})),
      hint: 'Run tapir:exceptions for full messages + stack traces.',
    },
  }
}
