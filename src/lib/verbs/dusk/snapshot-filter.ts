import {TapirError} from '../../errors.js'

/** One node of a YAML snapshot: its `- role "label"` line, the `key: value` lines under it, its children. */
interface SnapNode {
  line: string
  props: string[]
  children: SnapNode[]
}

export interface SnapshotFilter {
  within?: string
  depth?: number
  interactiveOnly?: boolean
  grep?: string
}

const INDENT = '  '
/** Nodes deeper than this (an app's answer is untrusted) are read as this deep, so the walks
 *  below stay within the stack. */
const MAX_DEPTH = 512

function indentOf(line: string): number {
  return Math.floor((line.length - line.trimStart().length) / INDENT.length)
}

/** Reads the snapshot's outline from its indentation: a `- ` line is a node, any other line belongs to the node above. */
function parse(yaml: string): SnapNode[] {
  const roots: SnapNode[] = []
  const open: SnapNode[] = []
  for (const raw of yaml.split('\n')) {
    if (raw.trim() === '') continue
    const level = Math.min(indentOf(raw), MAX_DEPTH)
    const text = raw.trimStart()
    if (!text.startsWith('- ')) {
      open.at(-1)?.props.push(text)
      continue
    }
    const node: SnapNode = {line: text, props: [], children: []}
    open.length = Math.min(open.length, level)
    ;(open.at(-1)?.children ?? roots).push(node)
    open.push(node)
  }
  return roots
}

function render(nodes: readonly SnapNode[], level = 0, out: string[] = []): string[] {
  for (const node of nodes) {
    out.push(INDENT.repeat(level) + node.line)
    for (const prop of node.props) out.push(INDENT.repeat(level + 1) + prop)
    render(node.children, level + 1, out)
  }
  return out
}

const REF = /\[ref=(e\d+)\]/

function findRef(nodes: readonly SnapNode[], ref: string): SnapNode | undefined {
  for (const node of nodes) {
    if (REF.exec(node.line)?.[1] === ref) return node
    const inside = findRef(node.children, ref)
    if (inside) return inside
  }
  return undefined
}

const withoutText = (nodes: readonly SnapNode[]): SnapNode[] =>
  nodes.flatMap((node) => (REF.test(node.line) ? [{...node, children: withoutText(node.children)}] : withoutText(node.children)))

const toDepth = (nodes: readonly SnapNode[], max: number, depth = 0): SnapNode[] =>
  depth > max ? [] : nodes.map((node) => ({...node, children: toDepth(node.children, max, depth + 1)}))

const QUOTED = /"((?:[^"\\]|\\.)*)"/g

/** The label and value a node line quotes (`- textbox "Email": "ada@x" [ref=e2]`). */
function quotedTexts(line: string): string[] {
  return [...line.replace(REF, '').matchAll(QUOTED)].map((match) => {
    try {
      return JSON.parse(`"${match[1]}"`) as string
    } catch {
      return match[1]!
    }
  })
}

function grepped(nodes: readonly SnapNode[], test: (text: string) => boolean): SnapNode[] {
  return nodes.flatMap((node) => {
    const children = grepped(node.children, test)
    return quotedTexts(node.line).some(test) || children.length > 0 ? [{...node, children}] : []
  })
}

function matcher(pattern: string): (text: string) => boolean {
  try {
    const regex = new RegExp(pattern)
    return (text) => text !== '' && regex.test(text)
  } catch {
    return (text) => text !== '' && text.includes(pattern)
  }
}

/** Does for an app on Dusk 0.0.1 what tapir's snap does in the app: the subtree under a ref, a
 *  depth below it, the lines with refs only, the nodes a pattern matches with their ancestors. */
export function filterSnapshot(yaml: string, filter: SnapshotFilter): string {
  if (filter.within === undefined && filter.depth === undefined && !filter.interactiveOnly && filter.grep === undefined) return yaml
  let nodes = parse(yaml)
  if (filter.within !== undefined) {
    const scope = findRef(nodes, filter.within)
    if (!scope)
      throw new TapirError(
        (words) =>
          `${words.param('within')} ref "${filter.within}" is not in the app's snapshot; ${words.run.toLowerCase()} ${words.call('snap')} for fresh refs.`,
        'app',
      )
    nodes = [scope]
  }
  if (filter.interactiveOnly) nodes = withoutText(nodes)
  if (filter.depth !== undefined) nodes = toDepth(nodes, filter.depth)
  if (filter.grep !== undefined) nodes = grepped(nodes, matcher(filter.grep))
  return render(nodes)
    .map((line) => `${line}\n`)
    .join('')
}
