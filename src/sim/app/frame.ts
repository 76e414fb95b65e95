import {intersect, type Rect} from './geometry.js'
import type {NodeIds} from './node-ids.js'
import type {SemanticsAnnotation, UiNode} from './ui-node.js'

/** A widget placed in the tree: element and render object in one. */
export interface Mounted {
  readonly ui: UiNode
  readonly path: string
  readonly parent: Mounted | null
  readonly children: readonly Mounted[]
  /** The route this widget belongs to (its nearest route ancestor, itself included). */
  readonly route: Mounted | null
  /** Where it can be seen: the view clipped by every enclosing scroll viewport. */
  readonly clip: Rect
  /** Enclosing scroll viewports, nearest first. */
  readonly scrollers: readonly Mounted[]
  /** Itself or an ancestor is offstage: not painted, not hit, no semantics. */
  readonly offstage: boolean
}

/** What a semantics node reports (`SemanticsData`), merged for a MergeSemantics boundary. */
export interface SemanticsData extends Required<Omit<SemanticsAnnotation, 'enabled' | 'checked' | 'toggled'>> {
  /** undefined: no checked state. */
  readonly checked: boolean | undefined
  /** undefined: no toggled state. */
  readonly toggled: boolean | undefined
  /** undefined: no enabled state. */
  readonly enabled: boolean | undefined
  readonly rect: Rect
}

export interface SemNode {
  readonly id: number
  readonly owner: Mounted
  readonly data: SemanticsData
  readonly mergedIntoParent: boolean
  readonly parent: SemNode | null
  readonly children: SemNode[]
}

/** One laid-out frame: the render tree and the semantics tree derived from it. */
export interface Frame {
  readonly root: Mounted
  readonly byPath: ReadonlyMap<string, Mounted>
  /** The semantics id of every mounted widget that annotates semantics, in the tree or not (blocked, offstage). */
  readonly semanticsIds: ReadonlyMap<string, number>
  readonly semRoot: SemNode
  readonly semByOwner: ReadonlyMap<string, SemNode>
}

export function isAncestorOrSelf(ancestor: Mounted, m: Mounted): boolean {
  return m.path === ancestor.path || m.path.startsWith(`${ancestor.path}/`)
}

export function mountFrame(root: UiNode, ids: NodeIds): Frame {
  const byPath = new Map<string, Mounted>()
  const mountedRoot = mount(root, null, byPath)
  const annotated = [...byPath.values()].filter((m) => m.ui.semantics !== undefined).map((m) => m.path)
  const idByPath = ids.retain(annotated)
  const semByOwner = new Map<string, SemNode>()
  const semRoot: SemNode = {
    id: 0,
    owner: mountedRoot,
    data: dataOf([], mountedRoot.ui.rect),
    mergedIntoParent: false,
    parent: null,
    children: [],
  }
  attachSemantics(mountedRoot, semRoot, false, idByPath, semByOwner)
  return {root: mountedRoot, byPath, semanticsIds: idByPath, semRoot, semByOwner}
}

function mount(ui: UiNode, parent: Mounted | null, byPath: Map<string, Mounted>): Mounted {
  const children: Mounted[] = []
  const mounted: {-readonly [K in keyof Mounted]: Mounted[K]} = {
    ui,
    path: parent === null ? ui.id : `${parent.path}/${ui.id}`,
    parent,
    children,
    route: parent?.route ?? null,
    clip: parent === null ? ui.rect : parent.ui.scroll ? intersect(parent.clip, parent.ui.rect) : parent.clip,
    scrollers: parent === null ? [] : parent.ui.scroll ? [parent, ...parent.scrollers] : parent.scrollers,
    offstage: Boolean(ui.offstage) || Boolean(parent?.offstage),
  }
  if (ui.route !== undefined) mounted.route = mounted
  byPath.set(mounted.path, mounted)
  for (const child of ui.children) children.push(mount(child, mounted, byPath))
  return mounted
}

function attachSemantics(
  m: Mounted,
  semParent: SemNode,
  merging: boolean,
  ids: Map<string, number>,
  semByOwner: Map<string, SemNode>,
): void {
  if (m.offstage) return
  let parentForChildren = semParent
  let mergingForChildren = merging
  if (m.ui.semantics !== undefined) {
    const sem: SemNode = {
      id: ids.get(m.path)!,
      owner: m,
      data: dataOf(m.ui.mergesDescendants ? mergedAnnotations(m) : [m.ui.semantics], m.ui.rect),
      mergedIntoParent: merging,
      parent: semParent,
      children: [],
    }
    semParent.children.push(sem)
    semByOwner.set(m.path, sem)
    parentForChildren = sem
    mergingForChildren = merging || Boolean(m.ui.mergesDescendants)
  }
  for (const child of semanticChildren(m)) attachSemantics(child, parentForChildren, mergingForChildren, ids, semByOwner)
}

/** BlockSemantics: a child that blocks drops every sibling painted before it. */
function semanticChildren(m: Mounted): readonly Mounted[] {
  const lastBlocker = m.children.findLastIndex((c) => c.ui.blocksEarlierSiblings && !c.offstage)
  return lastBlocker < 0 ? m.children : m.children.slice(lastBlocker)
}

function mergedAnnotations(boundary: Mounted): SemanticsAnnotation[] {
  const out: SemanticsAnnotation[] = []
  const visit = (m: Mounted): void => {
    if (m.offstage) return
    if (m.ui.semantics) out.push(m.ui.semantics)
    m.children.forEach(visit)
  }
  visit(boundary)
  return out
}

function dataOf(parts: readonly SemanticsAnnotation[], rect: Rect): SemanticsData {
  const any = (pick: (a: SemanticsAnnotation) => boolean | undefined): boolean => parts.some((a) => pick(a) === true)
  return {
    label: parts
      .map((a) => a.label ?? '')
      .filter((l) => l !== '')
      .join('\n'),
    value: parts.map((a) => a.value ?? '').find((v) => v !== '') ?? '',
    button: any((a) => a.button),
    textField: any((a) => a.textField),
    obscured: any((a) => a.obscured),
    checked: firstDefined(parts.map((a) => a.checked)),
    toggled: firstDefined(parts.map((a) => a.toggled)),
    link: any((a) => a.link),
    header: any((a) => a.header),
    image: any((a) => a.image),
    focused: any((a) => a.focused),
    tap: any((a) => a.tap),
    enabled: firstDefined(parts.map((a) => a.enabled)),
    rect,
  }
}

const firstDefined = (values: readonly (boolean | undefined)[]): boolean | undefined => values.find((v) => v !== undefined)
