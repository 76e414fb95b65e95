// Reads the text of ext.flutter.debugDumpSemanticsTreeInTraversalOrder: `SemanticsNode.toStringDeep`
// in the sparse tree style (flutter/flutter packages/flutter/lib/src/semantics/semantics.dart,
// `SemanticsNode.debugFillProperties`; the format held by packages/flutter/test/semantics/
// semantics_test.dart, 'debug properties'). Each node is a `SemanticsNode#<id>` line under a
// `├─`/`└─` connector; its properties follow, one a line, a long one wrapped with the rest indented
// two more. A rect is printed shifted by the node's transform when that is a translation (so in its
// parent's coordinates), followed by `scaled by Nx` for a uniform scale (the root's pixel ratio), or
// followed by `with transform [r0; r1; r2; r3]` for any other (a Transform.scale, a RotatedBox): the
// rows of vector_math's `Matrix4.toString` (google/vector_math.dart lib/src/vector_math_64/
// matrix4.dart @e1bd2a69, each row `x,y,z,w`, the translation last), their `[i] ` heads cut.

export interface DumpNode {
  readonly id: number
  /** Logical pixels in the view: its ancestors' transforms and its own applied, the pixel ratio undone. */
  readonly rect: {left: number; top: number; width: number; height: number}
  readonly flags: ReadonlySet<string>
  readonly actions: ReadonlySet<string>
  readonly label: string
  readonly value: string
  readonly tooltip: string
  readonly mergedUp: boolean
  readonly invisible: boolean
  readonly hidden: boolean
  /** The root's child's scale (the pixel ratio), else 1. */
  readonly scale: number
  readonly children: DumpNode[]
}

export const NOT_GENERATED = 'Semantics not generated'

const NODE = /^(.*?)(?:[├└]─)?SemanticsNode#(\d+)\s*$/
const RECT = /^Rect\.fromLTRB\((-?[\d.]+), (-?[\d.]+), (-?[\d.]+), (-?[\d.]+)\)(?: scaled by ([\d.]+)x| with transform \[(.*)\])?$/

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
  // A node's rect is placed in the view through its ancestors' transforms and its own, from the
  // root's physical pixels with the pixel ratio (its child's scale) undone.
  const ratio = pixelRatio(raws.find((raw) => raw.depth === 1))
  const build = (toView: Affine): DumpNode => {
    const raw = raws[at++] ?? first
    const {node, transform} = toNode(raw, toView)
    const childToView: Affine = raw.depth === 0 ? [1 / ratio, 0, 0, 1 / ratio, 0, 0] : compose(toView, transform)
    while (raws[at]?.depth === raw.depth + 1) node.children.push(build(childToView))
    return node
  }
  return build(IDENTITY)
}

/** A 2-D affine transform [a, b, c, d, tx, ty]: x' = a x + b y + tx, y' = c x + d y + ty. */
type Affine = readonly [number, number, number, number, number, number]
const IDENTITY: Affine = [1, 0, 0, 1, 0, 0]

function compose(outer: Affine, inner: Affine): Affine {
  const [a, b, c, d, tx, ty] = outer
  const [e, f, g, h, ux, uy] = inner
  return [a * e + b * g, a * f + b * h, c * e + d * g, c * f + d * h, a * ux + b * uy + tx, c * ux + d * uy + ty]
}

/** The bounding box of a rect's corners under a transform, to a millionth of a pixel. */
function place(m: Affine, [l, t, r, b]: Corners): DumpNode['rect'] {
  const xs = [l, r].flatMap((x) => [t, b].map((y) => m[0] * x + m[1] * y + m[4]))
  const ys = [l, r].flatMap((x) => [t, b].map((y) => m[2] * x + m[3] * y + m[5]))
  const round = (n: number): number => Math.round(n * 1e6) / 1e6 + 0
  const [left, top] = [round(Math.min(...xs)), round(Math.min(...ys))]
  return {left, top, width: round(Math.max(...xs) - left), height: round(Math.max(...ys) - top)}
}

type Corners = readonly [number, number, number, number]

/** `r0; r1; r2; r3`'s 2-D part; undefined unless it is four rows of four numbers. */
function matrixOf(rows: string): Affine | undefined {
  const m = rows.split(';').map((row) => row.split(',').map((n) => Number(n.trim())))
  if (m.length !== 4 || m.some((row) => row.length !== 4 || row.some((n) => !Number.isFinite(n)))) return undefined
  const [[a = 1, b = 0, , tx = 0] = [], [c = 0, d = 1, , ty = 0] = []] = m
  return [a, b, c, d, tx, ty]
}

/** The transform a rect property prints and the rect in the node's own coordinates. A rect shifted
 *  by a translation, or scaled, is taken to start at the node's own origin (a box's semantic bounds
 *  do, unless a clip cut them), so its corner is where that origin lies. */
function rectOf(prop: string): {transform: Affine; own: Corners} | undefined {
  const r = RECT.exec(prop)
  if (!r) return undefined
  const [l, t, right, b] = [Number(r[1]), Number(r[2]), Number(r[3]), Number(r[4])]
  const matrix = r[6] === undefined ? undefined : matrixOf(r[6])
  if (matrix !== undefined) return {transform: matrix, own: [l, t, right, b]}
  const s = r[5] === undefined ? 1 : Number(r[5])
  return {transform: [s, 0, 0, s, s * l, s * t], own: [0, 0, right - l, b - t]}
}

/** The root's child's scale: the device pixel ratio (1 when there is none). */
function pixelRatio(raw: Raw | undefined): number {
  const [a = 1, , c = 0] = raw?.props.map(rectOf).find((found) => found !== undefined)?.transform ?? []
  return Math.hypot(a, c) || 1
}

/** A node's depth from its connector's column: the root has none, each level adds two columns. */
function connectorDepth(prefix: string): number {
  return prefix === '' ? 0 : Math.floor(prefix.length / 2) + 1
}

function toNode(raw: Raw, toView: Affine): {node: DumpNode; transform: Affine} {
  let rect = {left: 0, top: 0, width: 0, height: 0}
  let transform = IDENTITY
  const flags = new Set<string>()
  const actions = new Set<string>()
  let label = ''
  let value = ''
  let tooltip = ''
  for (const prop of raw.props) {
    const placed = rectOf(prop)
    if (placed) {
      transform = placed.transform
      rect = place(compose(toView, transform), placed.own)
    } else if (prop.startsWith('flags: ')) for (const f of list(prop)) flags.add(f)
    else if (prop.startsWith('actions: ')) for (const a of list(prop)) actions.add(a.replace('🚫️', ''))
    else if (prop.startsWith('label: ')) label = quoted(prop)
    else if (prop.startsWith('value: ')) value = quoted(prop)
    else if (prop.startsWith('tooltip: ')) tooltip = quoted(prop)
  }
  const node: DumpNode = {
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
    scale: raw.depth === 1 ? Math.hypot(transform[0], transform[2]) : 1,
    children: [],
  }
  return {node, transform}
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
