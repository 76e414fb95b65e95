import {boolean, nullable, number, object, optional, string, type Infer, type Shape} from '../shape.js'
import type {Box, ScreenNode} from './types.js'

/** One node line of a snapshot: a ref line (`- button "Save" [ref=e4]`) or a text line. */
export interface SnapshotLine {
  ref: string | null
  role: string
  label: string
  value: string
  offscreen: boolean
}

const QUOTED = String.raw`"((?:[^"\\]|\\.)*)"`
const LINE = new RegExp(String.raw`^\s*- (\S+) ${QUOTED}(?:: ${QUOTED})?(?: \[ref=(e\d+)\])?(.*)$`)
const unescape = (s: string): string => s.replace(/\\(.)/g, '$1')

/** The node lines of snap's YAML, in tree order; sub-lines (typeable, tapOwner, ...) are skipped. */
export function snapshotLines(yaml: string): SnapshotLine[] {
  return yaml.split('\n').flatMap((line) => {
    const match = LINE.exec(line)
    if (!match) return []
    const [, role, label, value, ref, rest] = match
    if (ref === undefined && role !== 'text') return []
    return [
      {
        ref: ref ?? null,
        role: role!,
        label: unescape(label!),
        value: unescape(value ?? ''),
        offscreen: (rest ?? '').includes('[offscreen]'),
      },
    ]
  })
}

const box: Shape<Box> = object({x: number, y: number, w: number, h: number})

/** What observe says of one candidate, as the audit reads it. */
export const candidateShape = object({
  role: optional(string),
  label: optional(string),
  value: optional(nullable(string)),
  bounds: optional(box),
  isEnabled: optional(boolean),
  isVisible: optional(boolean),
  inViewport: optional(boolean),
})
export type Candidate = Infer<typeof candidateShape>

/**
 * The snapshot's ref lines with observe's bounds and states. Both list the screen's widgets in
 * tree order, so each line takes the next unused candidate with its role, label and value (and
 * failing that, any unused one with them). A text line has no candidate: its rect comes later.
 */
export function screenNodes(lines: readonly SnapshotLine[], candidates: readonly Candidate[]): ScreenNode[] {
  const used = new Set<number>()
  let next = 0
  const same = (line: SnapshotLine, c: Candidate) =>
    c.role === line.role && (c.label ?? '') === line.label && (c.value ?? '') === line.value
  return lines.map((line) => {
    const base: ScreenNode = {
      ref: line.ref,
      role: line.role,
      label: line.label,
      value: line.value,
      rect: null,
      ...(line.offscreen ? {offscreen: true} : {}),
    }
    if (line.ref === null) return base
    let at = candidates.findIndex((c, i) => i >= next && !used.has(i) && same(line, c))
    if (at === -1) at = candidates.findIndex((c, i) => !used.has(i) && same(line, c))
    if (at === -1) return base
    used.add(at)
    next = at + 1
    const c = candidates[at]!
    return {
      ...base,
      rect: c.bounds ?? null,
      ...(c.isEnabled !== undefined ? {enabled: c.isEnabled} : {}),
      ...(c.isVisible !== undefined ? {visible: c.isVisible} : {}),
      ...(c.inViewport === false || line.offscreen ? {offscreen: true} : {}),
    }
  })
}
