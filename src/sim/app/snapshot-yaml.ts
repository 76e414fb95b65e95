import type {AppModel} from './app-model.js'
import {enrichersFor} from './enrichers.js'
import type {Mounted, SemNode} from './frame.js'
import {bounds, dartDouble} from './geometry.js'
import {roleOf, type Role} from './roles.js'
import {isInnerTextbox} from './semantics.js'
import {snapshotBinder} from './snapshot-refs.js'
import {tapOwnerOf} from './tap-owner.js'
import {markers} from './visibility.js'

export interface SnapshotOptions {
  /** Deepest emitted depth kept (the root's lines are depth 0). */
  readonly depth?: number
  /** Walk only this node's subtree. */
  readonly within?: SemNode
  readonly interactiveOnly?: boolean
  readonly grep?: string
  readonly includeEnrichers?: boolean
}

export interface SnapshotText {
  readonly yaml: string
  /** The grep pattern was not a valid regex and was matched as a literal substring. */
  readonly grepLiteral: boolean
}

/** One emitted line: a ref line (role set) or a `- text` line (role null). */
interface Entry {
  readonly sem: SemNode
  readonly role: Role | null
  readonly children: readonly Entry[]
}

export function renderSnapshot(app: AppModel, options: SnapshotOptions = {}): SnapshotText {
  const roots = options.within ? outline(options.within) : app.frame.semRoot.children.flatMap(outline)
  let entries = options.interactiveOnly ? withoutText(roots) : roots
  if (options.depth !== undefined) entries = toDepth(entries, options.depth, 0)
  let grepLiteral = false
  if (options.grep !== undefined) {
    const matcher = grepMatcher(options.grep)
    grepLiteral = matcher.literal
    entries = grepped(entries, matcher.test)
  }
  const lines: string[] = []
  const bind = snapshotBinder(app.frame)
  const emit = (entry: Entry, depth: number): void => {
    lines.push(...entryLines(app, entry, depth, bind, options.includeEnrichers === true))
    for (const child of entry.children) emit(child, depth + 1)
  }
  for (const entry of entries) emit(entry, 0)
  return {yaml: lines.map((line) => `${line}\n`).join(''), grepLiteral}
}

/** Nodes that print nothing (merged descendants, unlabelled containers, collapsed inner textboxes) add no depth. */
function outline(sem: SemNode): Entry[] {
  const role = roleOf(sem.data)
  const children = (): Entry[] => sem.children.flatMap(outline)
  if (sem.mergedIntoParent || isInnerTextbox(sem)) return children()
  if (role !== null) return [{sem, role, children: children()}]
  if (sem.data.label !== '' || sem.data.value !== '') return [{sem, role: null, children: children()}]
  return children()
}

function withoutText(entries: readonly Entry[]): Entry[] {
  return entries.flatMap((entry) =>
    entry.role === null ? withoutText(entry.children) : [{...entry, children: withoutText(entry.children)}],
  )
}

function toDepth(entries: readonly Entry[], maxDepth: number, depth: number): Entry[] {
  return depth > maxDepth ? [] : entries.map((entry) => ({...entry, children: toDepth(entry.children, maxDepth, depth + 1)}))
}

function grepped(entries: readonly Entry[], test: (s: string) => boolean): Entry[] {
  return entries.flatMap((entry) => {
    const children = grepped(entry.children, test)
    const matches = test(entry.sem.data.label) || test(entry.sem.data.value)
    return matches || children.length > 0 ? [{...entry, children}] : []
  })
}

function grepMatcher(pattern: string): {test: (s: string) => boolean; literal: boolean} {
  try {
    const regex = new RegExp(pattern)
    return {test: (s) => s !== '' && regex.test(s), literal: false}
  } catch {
    return {test: (s) => s !== '' && s.includes(pattern), literal: true}
  }
}

function entryLines(
  app: AppModel,
  entry: Entry,
  depth: number,
  bind: ReturnType<typeof snapshotBinder>,
  includeEnrichers: boolean,
): string[] {
  const indent = '  '.repeat(depth)
  const {sem, role} = entry
  const {label, value} = sem.data
  if (role === null) return [`${indent}- text "${escape(value !== '' ? value : label)}"`]
  const token = app.refs.register(bind(sem))
  const valuePart = value !== '' ? `: "${escape(value)}"` : ''
  const lines = [`${indent}- ${role} "${escape(label)}"${valuePart} [ref=${token}]${markers(app.frame, sem.owner)}`]
  const sub = `${indent}  `
  if (role === 'textbox') lines.push(`${sub}typeable: true`)
  if (insideOverflow(sem.owner)) lines.push(`${sub}overflow: true`)
  const owner = tapOwnerOf(app.frame, sem)
  if (owner !== null) lines.push(`${sub}tapOwner: ${tapOwnerJson(owner.rect, owner.retargets)}`)
  if (includeEnrichers) {
    for (const field of enrichersFor(app, sem)) lines.push(`${sub}${field.key}: ${field.value}`)
  }
  return lines
}

function insideOverflow(m: Mounted | null): boolean {
  return m !== null && (Boolean(m.ui.overflowing) || insideOverflow(m.parent))
}

/** Dart's jsonEncode of the rect: doubles keep their `.0`. */
function tapOwnerJson(rect: SemNode['data']['rect'], retargets: boolean): string {
  const b = bounds(rect)
  const parts = [`"x":${dartDouble(b.x)}`, `"y":${dartDouble(b.y)}`, `"w":${dartDouble(b.w)}`, `"h":${dartDouble(b.h)}`]
  if (!retargets) parts.push('"retargets":false')
  return `{${parts.join(',')}}`
}

const escape = (s: string): string => s.replaceAll('\\', '\\\\').replaceAll('"', '\\"')
