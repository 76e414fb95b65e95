import type {DumpNode} from './semantics-dump.js'

// The snapshot YAML the tapir package prints, built from Flutter's own semantics tree: a line per
// node that has a role (from its flags and actions) or text, `[ref=eN]` where N is the node's
// semantics id (valid while that node is mounted), `typeable: true` under a text field, and
// `[offscreen]` for a node wholly outside the view.

export type Role = 'textbox' | 'checkbox' | 'link' | 'heading' | 'image' | 'button'

export interface SnapshotOptions {
  readonly depth?: number
  readonly within?: DumpNode
  readonly interactiveOnly?: boolean
  readonly grep?: string
}

interface Entry {
  readonly node: DumpNode
  readonly role: Role | null
  readonly children: readonly Entry[]
}

/** The package's role precedence, read from SemanticsFlag names and the tap action. */
export function roleOf(node: DumpNode): Role | null {
  const {flags} = node
  if (flags.has('isTextField')) return 'textbox'
  if (flags.has('hasCheckedState')) return 'checkbox'
  if (flags.has('isLink')) return 'link'
  if (flags.has('isHeader')) return 'heading'
  if (flags.has('isImage')) return 'image'
  if (flags.has('isButton') || node.actions.has('tap')) return 'button'
  return null
}

export const refOf = (node: DumpNode): string => `e${node.id}`

/** Every node below `root`, depth first. */
export function allNodes(root: DumpNode): DumpNode[] {
  return root.children.flatMap((child) => [child, ...allNodes(child)])
}

/** The view in logical pixels: the root's physical rect over its child's pixel ratio. */
export function viewOf(root: DumpNode): {width: number; height: number} {
  const scale = root.children[0]?.scale ?? 1
  return {width: root.rect.width / scale, height: root.rect.height / scale}
}

export function offscreen(node: DumpNode, view: {width: number; height: number}): boolean {
  const {left, top, width, height} = node.rect
  return left + width <= 0 || top + height <= 0 || left >= view.width || top >= view.height
}

export function renderSnapshot(root: DumpNode, options: SnapshotOptions = {}): string {
  const view = viewOf(root)
  let entries = options.within ? outline(options.within) : root.children.flatMap((child) => outline(child))
  if (options.interactiveOnly) entries = withoutText(entries)
  if (options.depth !== undefined) entries = toDepth(entries, options.depth, 0)
  if (options.grep !== undefined) entries = grepped(entries, matcher(options.grep))
  const lines: string[] = []
  const emit = (entry: Entry, depth: number): void => {
    const indent = '  '.repeat(depth)
    const {node, role} = entry
    if (role === null) lines.push(`${indent}- text "${escape(node.value !== '' ? node.value : node.label)}"`)
    else {
      const value = node.value !== '' ? `: "${escape(node.value)}"` : ''
      lines.push(`${indent}- ${role} "${escape(node.label)}"${value} [ref=${refOf(node)}]${offscreen(node, view) ? ' [offscreen]' : ''}`)
      if (role === 'textbox') lines.push(`${indent}  typeable: true`)
    }
    for (const child of entry.children) emit(child, depth + 1)
  }
  for (const entry of entries) emit(entry, 0)
  return lines.map((line) => `${line}\n`).join('')
}

/** The nodes a full snapshot prints a line for, in its order. */
export function listedNodes(root: DumpNode): DumpNode[] {
  const flat = (entries: readonly Entry[]): DumpNode[] => entries.flatMap((entry) => [entry.node, ...flat(entry.children)])
  return flat(root.children.flatMap((child) => outline(child)))
}

/** Merged-up nodes and unlabelled containers print nothing and add no depth; nor does a text
 *  field's inner editable node under the field's own (one field, one line, as the package prints). */
function outline(node: DumpNode, inTextbox = false): Entry[] {
  const role = roleOf(node)
  const children = (): Entry[] => node.children.flatMap((child) => outline(child, inTextbox || role === 'textbox'))
  if (node.mergedUp || node.hidden || (inTextbox && role === 'textbox')) return children()
  if (role !== null) return [{node, role, children: children()}]
  if (node.label !== '' || node.value !== '') return [{node, role: null, children: children()}]
  return children()
}

function withoutText(entries: readonly Entry[]): Entry[] {
  return entries.flatMap((entry) =>
    entry.role === null ? withoutText(entry.children) : [{...entry, children: withoutText(entry.children)}],
  )
}

function toDepth(entries: readonly Entry[], max: number, depth: number): Entry[] {
  return depth > max ? [] : entries.map((entry) => ({...entry, children: toDepth(entry.children, max, depth + 1)}))
}

function grepped(entries: readonly Entry[], test: (s: string) => boolean): Entry[] {
  return entries.flatMap((entry) => {
    const children = grepped(entry.children, test)
    return test(entry.node.label) || test(entry.node.value) || children.length > 0 ? [{...entry, children}] : []
  })
}

function matcher(pattern: string): (s: string) => boolean {
  try {
    const regex = new RegExp(pattern)
    return (s) => s !== '' && regex.test(s)
  } catch {
    return (s) => s !== '' && s.includes(pattern)
  }
}

const escape = (s: string): string => s.replaceAll('\\', '\\\\').replaceAll('"', '\\"')
