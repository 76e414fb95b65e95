import type {AppModel} from './app-model.js'
import {isAncestorOrSelf, type Frame, type Mounted, type SemNode} from './frame.js'
import type {Query} from './refs.js'
import {isActionable} from './roles.js'
import {exposedNodes} from './semantics.js'
import {locateSnapshotRef} from './snapshot-refs.js'

/** Something an action can aim at: a widget, and the semantics node it owns when it owns one. */
export interface Target {
  readonly mounted: Mounted
  readonly sem: SemNode | null
  /** Found through the element tree (a key or a `Text`) rather than the semantics tree. */
  readonly viaElement: boolean
}

export type QueryOutcome =
  | {readonly kind: 'matched'; readonly target: Target; readonly matchCount: number; readonly diagnostic?: string}
  | {readonly kind: 'none'; readonly diagnostic?: string}

/** Runs a find/observe query against the live tree: one predicate, in the order key, semanticsLabel, text, contains. */
export function runQuery(app: AppModel, query: Query): QueryOutcome {
  let scope: Mounted | undefined
  if (query.within !== undefined) {
    const located = locateSnapshotRef(app, query.within)
    if (located.kind !== 'live')
      return {kind: 'none', diagnostic: `within ref ${query.within} no longer resolves; re-snap and pass a fresh e<N> ref`}
    scope = located.target.mounted
  }
  const {frame} = app
  if (query.key !== undefined) return pickElement(frame, keyed(frame, query.key, query.text, scope), 'key', query.key)
  if (query.semanticsLabel !== undefined)
    return pickNode(
      bySemantics(frame, scope, (l) => l === query.semanticsLabel),
      query,
      'label',
      query.semanticsLabel,
    )
  const needle = query.text ?? query.contains
  if (needle === undefined) return {kind: 'none'}
  const test = query.text !== undefined ? (s: string) => s === needle : (s: string) => s.includes(needle)
  const nodes = bySemantics(frame, scope, test)
  if (nodes.length > 0) return pickNode(nodes, query, query.text !== undefined ? 'label' : 'contains', needle)
  return pickElement(frame, texts(frame, scope, test), 'text', needle)
}

function bySemantics(frame: Frame, scope: Mounted | undefined, test: (label: string) => boolean): SemNode[] {
  return exposedNodes(frame, scope).filter((sem) => sem.data.label !== '' && test(sem.data.label))
}

function onstage(frame: Frame, scope: Mounted | undefined): Mounted[] {
  return [...frame.byPath.values()].filter((m) => !m.offstage && (scope === undefined || isAncestorOrSelf(scope, m)))
}

/** `ValueKey<String>`: matched by its value or by its `toString()`. */
function keyed(frame: Frame, key: string, text: string | undefined, scope: Mounted | undefined): Mounted[] {
  const matchesKey = (m: Mounted): boolean => m.ui.key !== undefined && (m.ui.key === key || `[<'${m.ui.key}'>]` === key)
  const hasText = (m: Mounted): boolean => m.ui.text === text || m.children.some(hasText)
  return onstage(frame, scope).filter((m) => matchesKey(m) && (text === undefined || hasText(m)))
}

function texts(frame: Frame, scope: Mounted | undefined, test: (data: string) => boolean): Mounted[] {
  return onstage(frame, scope).filter((m) => m.ui.text !== undefined && test(m.ui.text))
}

/** Several nodes share the label: the first control a user can act on wins over a heading or plain text. */
function pickNode(nodes: readonly SemNode[], query: Query, predicate: string, needle: string): QueryOutcome {
  const chosen = query.matchIndex !== undefined ? nodes[query.matchIndex] : (nodes.find((sem) => isActionable(sem.data)) ?? nodes[0])
  if (chosen === undefined) return {kind: 'none'}
  return {
    kind: 'matched',
    target: {mounted: chosen.owner, sem: chosen, viaElement: false},
    matchCount: nodes.length,
    ...severalMatched(predicate, needle, nodes.length),
  }
}

function pickElement(frame: Frame, elements: readonly Mounted[], predicate: string, needle: string): QueryOutcome {
  const [first] = elements
  if (first === undefined) return {kind: 'none'}
  return {
    kind: 'matched',
    target: elementTarget(frame, first),
    matchCount: elements.length,
    ...severalMatched(predicate, needle, elements.length),
  }
}

/** An element-tree match: it carries a semantics node only when its render object owns one. */
function elementTarget(frame: Frame, m: Mounted): Target {
  return {mounted: m, sem: frame.semByOwner.get(m.path) ?? null, viaElement: true}
}

function severalMatched(predicate: string, needle: string, count: number): {diagnostic?: string} {
  return count > 1
    ? {diagnostic: `${predicate} '${needle}' matched ${count} nodes; refine with --key, --text, or --contains, or scope with --within`}
    : {}
}
