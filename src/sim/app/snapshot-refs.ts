import type {AppModel} from './app-model.js'
import type {Frame, SemNode} from './frame.js'
import type {Target} from './queries.js'
import type {SnapshotBinding} from './refs.js'
import {exposedNodes, nodesLabelled, routeNameOf} from './semantics.js'

export type Located = {readonly kind: 'live'; readonly target: Target} | {readonly kind: 'unknown'} | {readonly kind: 'defunct'}

/**
 * An `e<N>` ref against the live tree. A node that left the tree is relocated through the
 * label-and-index query the snapshot bound, trusted only when the live tree has as many nodes
 * with that label as at snapshot time and the hit is on the route the ref was minted on (the
 * registry keeps it to report). A ref an element-tree walk minted has no such query.
 */
export function locateSnapshotRef(app: AppModel, token: string): Located {
  const ref = app.refs.lookup(token)
  if (ref === undefined) return {kind: 'unknown'}
  const {frame} = app
  const mounted = frame.byPath.get(ref.ownerPath)
  if (ref.semanticsId === null) {
    if (mounted === undefined || mounted.offstage) return {kind: 'defunct'}
    return {kind: 'live', target: {mounted, sem: frame.semByOwner.get(mounted.path) ?? null, viaElement: true}}
  }
  // The same path holding a node with another id is a new element that replaced the old one.
  if (mounted !== undefined && frame.semanticsIds.get(ref.ownerPath) === ref.semanticsId)
    return {kind: 'live', target: {mounted, sem: frame.semByOwner.get(mounted.path) ?? null, viaElement: false}}
  if (ref.label === '') return {kind: 'defunct'}
  const sameLabel = nodesLabelled(frame, ref.label)
  const candidate = sameLabel[ref.labelIndex]
  if (sameLabel.length !== ref.labelCount || candidate === undefined || routeNameOf(candidate.owner) !== ref.route) return {kind: 'defunct'}
  app.refs.relocate(ref, candidate.owner.path, candidate.id)
  return {kind: 'live', target: {mounted: candidate.owner, sem: candidate, viaElement: false}}
}

/** Binds refs for one snapshot: each node with its position among the live nodes sharing its label. */
export function snapshotBinder(frame: Frame): (sem: SemNode) => SnapshotBinding & {semanticsId: number} {
  const byLabel = new Map<string, SemNode[]>()
  for (const sem of exposedNodes(frame)) {
    const list = byLabel.get(sem.data.label) ?? []
    list.push(sem)
    byLabel.set(sem.data.label, list)
  }
  return (sem) => {
    const sameLabel = byLabel.get(sem.data.label) ?? []
    return {
      ownerPath: sem.owner.path,
      semanticsId: sem.id,
      label: sem.data.label,
      labelIndex: sameLabel.indexOf(sem),
      labelCount: sameLabel.length,
      route: routeNameOf(sem.owner),
    }
  }
}
