import {postActionSnapshot} from '../action-snapshot.js'
import type {AppModel} from '../app-model.js'
import {tapirError} from '../errors.js'
import type {Frame, Mounted, SemNode} from '../frame.js'
import {centre} from '../geometry.js'
import {tapAt} from '../pointer.js'
import type {Target} from '../queries.js'
import {resolveForAction} from '../resolve.js'
import {descendantsOf} from '../semantics.js'
import type {ExtensionHandler} from './extension-handler.js'

/** Reads the checked or toggled state and taps the control (ungated, unscrolled) only when it differs. */
export const setCheckboxHandler: ExtensionHandler = {
  name: 'set_checkbox',
  cites: 'tapir_set_checkbox',
  wakesFrames: true,
  run(app, params) {
    const ref = params.required('ref')
    const requested = params.required('value')
    const value = requested !== 'false' && requested !== '0'
    const target = resolveForAction(app, params, ref)
    const control = stateOwner(app, target, ref)
    const before = stateOf(control)
    const toggled = before !== value
    if (toggled) tapAt(app, centre(control.data.rect))
    const after = liveState(app.frame, control.owner)
    return {
      ref,
      previousValue: before,
      value,
      toggled,
      effect: {kind: 'checked', verified: after === value, before, after},
      ...postActionSnapshot(app, params),
    }
  },
}

const hasState = (sem: SemNode): boolean => sem.data.checked !== undefined || sem.data.toggled !== undefined
const stateOf = (sem: SemNode): boolean => (sem.data.checked ?? sem.data.toggled) === true

function liveState(frame: Frame, owner: Mounted): boolean | null {
  const sem = frame.semByOwner.get(owner.path)
  return sem !== undefined && hasState(sem) ? stateOf(sem) : null
}

/**
 * 1. the ref's own node has the flag; 2. it has none and exactly one descendant does;
 * 3. an element match whose render object owns no node: the nearest node above, by its own flag.
 */
function stateOwner(app: AppModel, target: Target, ref: string): SemNode {
  const own = target.sem
  if (own !== null) {
    if (hasState(own)) return own
    const flagged = descendantsOf(own).filter(hasState)
    if (flagged.length === 1) return flagged[0]!
    if (flagged.length > 1) {
      throw tapirError(
        `ext.tapir.set_checkbox: ref ${ref} holds ${flagged.length} checkable controls; pass the ref of one of them`,
        'not_found',
        ref,
      )
    }
  } else {
    const above = nearestNodeAbove(app.frame, target.mounted)
    if (above !== null && hasState(above)) return above
  }
  throw tapirError(`ext.tapir.set_checkbox: ref ${ref} has no checked or toggled state`, 'not_found', ref)
}

function nearestNodeAbove(frame: Frame, m: Mounted): SemNode | null {
  for (let at = m.parent; at !== null; at = at.parent) {
    const sem = frame.semByOwner.get(at.path)
    if (sem !== undefined) return sem
  }
  return null
}
