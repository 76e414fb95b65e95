import {isJsonObject} from '../shape.js'
import type {Input, Result} from '../verbs/types.js'
import type {Candidate, ScreenNode} from './state.js'

/** `- button "Sign in": "value" [ref=e4] [offscreen]`: a line's role, its quoted label and value,
 *  and the rest (where the ref is). A `- text "…"` line carries no ref. */
const LINE = /^\s*- ([a-z][\w-]*)(?: "((?:[^"\\]|\\.)*)")?(?:: "((?:[^"\\]|\\.)*)")?(.*)$/
const REF = /\[ref=(e\d+)\]/
/** The mark after a ref of a node outside the view (the reference, tapir_snap). */
const OFFSCREEN = /\[ref=e\d+\](?: \[[a-z]+\])*? \[offscreen\]/
/** A line longer than any widget's is not read: the pattern would take too long on it. */
const MAX_LINE = 2000
/** A recording keeps at most this many nodes of a screen (the state is rewritten every call). */
export const MAX_NODES = 5000
/** A recording keeps at most this many observe candidates. */
export const MAX_CANDIDATES = 1000

const unescape = (text: string) => text.replace(/\\(.)/g, '$1')

/**
 * Whether a field's value is what an obscured field shows: Flutter's RenderEditable describes an
 * obscured field's semantics value as `obscuringCharacter * text.length` (flutter/flutter
 * `packages/flutter/lib/src/rendering/editable.dart`, `describeSemanticsConfiguration`; the
 * character is EditableText's `obscuringCharacter`, `•` by default): one character, repeated,
 * that is no letter or digit.
 */
export function looksObscured(value: string): boolean {
  const [first] = value
  return first !== undefined && !/[\p{L}\p{N}\s]/u.test(first) && [...value].every((char) => char === first)
}

/** The nodes of a snapshot in tree order: each line's role, label and ref (none on a text line),
 *  and whether its value reads as obscured. */
export function screenNodes(snapshot: string): ScreenNode[] {
  const nodes: ScreenNode[] = []
  for (const line of snapshot.split('\n')) {
    if (nodes.length >= MAX_NODES) break
    const match = line.length > MAX_LINE ? null : LINE.exec(line)
    if (!match) continue
    const [, role = '', label = '', value, rest = ''] = match
    const ref = REF.exec(rest)?.[1]
    nodes.push({
      role,
      label: unescape(label),
      ...(ref ? {ref} : {}),
      ...(value !== undefined && looksObscured(unescape(value)) ? {obscured: true} : {}),
      ...(ref && OFFSCREEN.test(rest) ? {offscreen: true} : {}),
    })
  }
  return nodes
}

/** A snap's input that cuts the tree (`within`, `grep`, `depth`): its refs cannot be counted
 *  against the whole screen. `interactiveOnly` drops only the lines without a ref. */
export function isWholeTree(input: Input): boolean {
  return input.within === undefined && input.grep === undefined && input.depth === undefined
}

/** The snapshot a result carries, if any. */
export function snapshotOf(result: Result): string | undefined {
  const snapshot = isJsonObject(result) ? result.snapshot : undefined
  return typeof snapshot === 'string' ? snapshot : undefined
}

/** Observe's candidates as a recording keeps them: by handle, each with its position among the
 *  candidates of its role and label (the form a replay's observe step picks it by). */
export function candidatesOf(result: Result, after: number): Array<[string, Candidate]> {
  const list = isJsonObject(result) && Array.isArray(result.candidates) ? result.candidates : []
  const seen = new Map<string, number>()
  const read: Array<{ref: string; role: string; label: string; group: string}> = []
  for (const entry of list.slice(0, MAX_CANDIDATES)) {
    if (!isJsonObject(entry) || typeof entry.ref !== 'string' || typeof entry.role !== 'string') continue
    const label = typeof entry.label === 'string' ? entry.label : ''
    const group = JSON.stringify([entry.role, label])
    read.push({ref: entry.ref, role: entry.role, label, group})
    seen.set(group, (seen.get(group) ?? 0) + 1)
  }
  const nth = new Map<string, number>()
  return read.map(({ref, role, label, group}) => {
    const index = (nth.get(group) ?? 0) + 1
    nth.set(group, index)
    return [ref, {role, label, nth: index, of: seen.get(group) ?? 1, after}]
  })
}
