import type {AppModel} from '../app-model.js'
import {enrichersFor} from '../enrichers.js'
import type {SemNode} from '../frame.js'
import {bounds} from '../geometry.js'
import type {Query} from '../refs.js'
import {roleOf, type Role} from '../roles.js'
import {exposedNodes, nodesLabelled} from '../semantics.js'
import {tapOwnerOf} from '../tap-owner.js'
import {isInViewport, isOccluded, isVisible} from '../visibility.js'
import type {ExtensionHandler} from './extension-handler.js'

type EnricherMode = 'off' | 'defaults' | 'full'

export const observeHandler: ExtensionHandler = {
  name: 'observe',
  cites: 'tapir_observe',
  wakesFrames: true,
  run(app, params) {
    const limit = params.int('limit', 50)
    const roles = params
      .optional('roles')
      ?.split(',')
      .map((r) => r.trim())
      .filter((r) => r !== '')
    const mode = enricherMode(params.optional('includeEnrichers'))
    const candidates: Record<string, unknown>[] = []
    for (const sem of exposedNodes(app.frame)) {
      if (candidates.length >= limit) break
      const role = roleOf(sem.data)
      if (role === null || (roles !== undefined && !roles.includes(role))) continue
      candidates.push(candidate(app, sem, role, mode))
    }
    return {candidates, count: candidates.length}
  },
}

function enricherMode(raw: string | undefined): EnricherMode {
  if (raw === 'false' || raw === '0') return 'off'
  return raw === 'full' ? 'full' : 'defaults'
}

function candidate(app: AppModel, sem: SemNode, role: Role, mode: EnricherMode): Record<string, unknown> {
  const {label, value, rect, enabled} = sem.data
  const owner = tapOwnerOf(app.frame, sem)
  const entry: Record<string, unknown> = {
    ref: app.refs.mintQuery(handleQuery(app, sem)),
    role,
    label,
    value: value === '' ? null : value,
    bounds: bounds(rect),
    isEnabled: enabled !== false,
    isVisible: isVisible(sem.owner),
    inViewport: isInViewport(sem.owner),
    occluded: isOccluded(app.frame, sem.owner),
  }
  if (owner !== null) {
    entry.tapOwner = {
      ...bounds(owner.rect),
      ...(owner.retargets ? {} : {retargets: false}),
      ...(owner.centreHandled ? {centreHandled: true} : {}),
    }
  }
  if (mode !== 'off') {
    for (const field of enrichersFor(app, sem)) if (mode === 'full' || field.inDefaultSubset) entry[field.key] = field.value
  }
  return entry
}

/** A labelled candidate is its label and its position among the nodes with that label; an unlabelled one, its value text. */
function handleQuery(app: AppModel, sem: SemNode): Query {
  const {label, value} = sem.data
  if (label === '') return {text: value}
  return {semanticsLabel: label, matchIndex: nodesLabelled(app.frame, label).indexOf(sem)}
}
