// Reads the text of ext.flutter.debugDumpSemanticsTreeInTraversalOrder: `SemanticsNode.toStringDeep`
// in the sparse tree style (flutter/flutter packages/flutter/lib/src/semantics/semantics.dart,
// `SemanticsNode.debugFillProperties`; the format held by packages/flutter/test/semantics/
// semantics_test.dart, 'debug properties'). Each node is a `SemanticsNode#<id>` line under a
// `├─`/`└─` connector; its properties follow, one a line, a long one wrapped with the rest indented
// two more; the rect is in its parent's coordinates (`Rect.fromLTRB(l, t, r, b)`, shifted by a
// translation, or followed by `scaled by Nx` for the root's pixel-ratio transform).

export interface DumpNode {
  readonly id: number
  /** Logical pixels in the view: translations summed from the root's scaled child down. */
  readonly rect: {left: number; top: number; width: number; height: number}
  readonly flags: ReadonlySet<string>
  readonly actions: ReadonlySet<string>
  readonly label: string
  readonly value: string
  readonly tooltip: string
  readonly mergedUp: boolean
  readonly invisible: boolean
  readonly hidden: boolean
  /** The pixel ratio of a `scaled by Nx` transform (the root's child), else 1. */
  readonly scale: number
  readonly children: DumpNode[]
}

export const NOT_GENERATED = 'Semantics not generated'

const NODE = /^(.*?)(?:[├└]─)?SemanticsNode#(\d+)\s*$/
const RECT = /^Rect\.fromLTRB\((-?[\d.]+), (-?[\d.]+), (-?[\d.]+), (-?[\d.]+)\)( scaled by [\d.]+x| with transform \[.*\])?$/

interface Raw {
  id: number
  depth: number
  props: string[]
}

/** The tree a dump describes; undefined when semantics are off (the text says so). */
export function parseSemanticsDump(text: string): DumpNode | undefined {
  if (text.startsWith(NOT_GENERATED)) return undefined
  const raws: Raw[] = []
  for (const line of text.split('\n')) {
    const node = NODE.exec(line)
    if (node) {
      raws.push({id: Number(node[2]), depth: connectorDepth(node[1] ?? ''), props: []})
      continue
    }
    const current = raws.at(-1)
    if (current === undefined) continue
    // A node at depth d writes its properties after 2d columns of guides and a three-column lead.
    const prop = line.slice(2 * current.depth + 3).trimEnd()
    if (prop === '') continue
    if (prop.startsWith('  ') && current.props.length > 0) current.props[current.props.length - 1] += ` ${prop.trim()}`
    else current.props.push(prop)
  }
  const first = raws[0]
  if (first === undefined) return undefined
  let at = 0
  const build = (origin: {x: number; y: number}, scaled: boolean): DumpNode => {
    const raw = raws[at++] ?? first
    const node = toNode(raw, origin, scaled)
    const childOrigin = raw.depth === 0 ? {x: 0, y: 0} : {x: node.rect.left, y: node.rect.top}
    while (raws[at]?.depth === raw.depth + 1) node.children.push(build(childOrigin, raw.depth === 0))
    return node
  }
  return build({x: 0, y: 0}, false)
}

/** A node's depth from its connector's column: the root has none, each level adds two columns. */
function connectorDepth(prefix: string): number {
  return prefix === '' ? 0 : Math.floor(prefix.length / 2) + 1
}

function toNode(raw: Raw, origin: {x: number; y: number}, childOfRoot: boolean): DumpNode {
  let rect = {left: 0, top: 0, width: 0, height: 0}
  const flags = new Set<string>()
  const actions = new Set<string>()
  let label = ''
  let value = ''
  let tooltip = ''
  let scale = 1
  for (const prop of raw.props) {
    const r = RECT.exec(prop)
    if (r) {
      const [l, t, right, b] = [Number(r[1]), Number(r[2]), Number(r[3]), Number(r[4])]
      const scaledBy = /scaled by ([\d.]+)x/.exec(r[5] ?? '')
      if (scaledBy) scale = Number(scaledBy[1])
      rect =
        raw.depth === 0 || childOfRoot
          ? {left: l, top: t, width: right - l, height: b - t}
          : {left: origin.x + l, top: origin.y + t, width: right - l, height: b - t}
    } else if (prop.startsWith('flags: ')) for (const f of list(prop)) flags.add(f)
    else if (prop.startsWith('actions: ')) for (const a of list(prop)) actions.add(a.replace('🚫️', ''))
    else if (prop.startsWith('label: ')) label = quoted(prop)
    else if (prop.startsWith('value: ')) value = quoted(prop)
    else if (prop.startsWith('tooltip: ')) tooltip = quoted(prop)
  }
  return {
    id: raw.id,
    rect,
    flags,
    actions,
    label,
    value,
    tooltip,
    mergedUp: raw.props.includes('merged up ⬆️'),
    invisible: raw.props.includes('invisible'),
    hidden: raw.props.includes('HIDDEN'),
    scale,
    children: [],
  }
}

function list(prop: string): string[] {
  return prop
    .slice(prop.indexOf(':') + 1)
    .split(',')
    .map((s) => s.trim())
    .filter((s) => s !== '')
}

/** `AttributedStringProperty`: the string between the first and the last double quote. */
function quoted(prop: string): string {
  const first = prop.indexOf('"')
  const last = prop.lastIndexOf('"')
  return first >= 0 && last > first ? prop.slice(first + 1, last) : ''
}
