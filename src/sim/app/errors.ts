import {ExtensionError} from '../app-contract.js'

export type EnvelopeType =
  'timeout' | 'not_found' | 'obscured' | 'disabled' | 'stale' | 'zero_rect' | 'off_viewport' | 'not_stable' | 'missing_param' | 'unexpected'

/** `ServiceExtensionResponse.error(-32000, {message, envelope})`, the way every tapir handler fails. */
export function tapirError(message: string, type: EnvelopeType, widgetPath?: string, suggestions: readonly string[] = []): ExtensionError {
  const envelope = {type, suggestions, ...(widgetPath === undefined ? {} : {widget_path: widgetPath})}
  return new ExtensionError(-32000, JSON.stringify({message, envelope}))
}

/** A `q<N>` handle whose stored predicates match nothing live. When its `within` scope is what
 *  stopped resolving, the handle reports `matched: false` with the diagnostic naming the scope. */
export function staleHandle(ref: string, diagnostic?: string): ExtensionError {
  const message = `Query handle ref=${ref} is stale: ${diagnostic ?? 'no live match for stored predicates'}`
  const envelope = {type: 'stale', suggestions: [], widget_path: ref, ...(diagnostic === undefined ? {} : {matched: false, diagnostic})}
  return new ExtensionError(-32000, JSON.stringify({message, envelope}))
}

export function missingParam(verb: string, name: string): ExtensionError {
  return tapirError(`ext.tapir.${verb}: missing required param "${name}"`, 'missing_param')
}

export type GateReason = 'defunct' | 'not enabled' | 'zero rect' | 'off-viewport' | 'not stable' | 'obscured by'

const GATE_TYPES: Readonly<Record<GateReason, EnvelopeType>> = {
  defunct: 'stale',
  'not enabled': 'disabled',
  'zero rect': 'zero_rect',
  'off-viewport': 'off_viewport',
  'not stable': 'not_stable',
  'obscured by': 'obscured',
}

/** `Widget ref=<ref> is not actionable: <reason>`; `detail` completes the reason where it has one. */
export function notActionable(ref: string, reason: GateReason, detail = ''): ExtensionError {
  return tapirError(`Widget ref=${ref} is not actionable: ${reason}${detail}`, GATE_TYPES[reason], ref)
}

/** Up to three candidates within edit distance 3 of `query`, a candidate it prefixes counting as 1. */
export function suggestionsFor(query: string, candidates: Iterable<string>): string[] {
  if (query === '') return []
  const scored = new Map<string, number>()
  for (const candidate of candidates) {
    if (candidate === '' || scored.has(candidate)) continue
    const raw = levenshtein(query, candidate)
    const distance = candidate.startsWith(query) ? Math.min(raw, 1) : raw
    if (distance <= 3) scored.set(candidate, distance)
  }
  return [...scored.entries()]
    .sort((a, b) => a[1] - b[1])
    .slice(0, 3)
    .map(([candidate]) => candidate)
}

function levenshtein(a: string, b: string): number {
  let previous = Array.from({length: b.length + 1}, (_, j) => j)
  for (let i = 1; i <= a.length; i++) {
    const current = [i]
    for (let j = 1; j <= b.length; j++) {
      const substitution = previous[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1)
      current.push(Math.min(current[j - 1]! + 1, previous[j]! + 1, substitution))
    }
    previous = current
  }
  return previous[b.length]!
}
