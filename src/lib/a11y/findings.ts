import {ParamError} from '../errors.js'
import {RULES, type Box, type Finding, type Rule} from './types.js'

/** What the audit reports. */
export interface Audit {
  [key: string]: unknown
  findings: Finding[]
  /** The rules that ran. */
  rules: Rule[]
  /** The tap target's side in logical pixels, and the platform it is for. */
  tapTarget: {size: number; platform: string}
  /** The view in logical pixels, which the findings' rects are in; null when the app gave none. */
  view: Box | null
  /** How many nodes of the screen were read. */
  nodes: number
  /** What the audit assumed or could not read, screen-wide. */
  notes: string[]
  /** A finding matched --fail-on. */
  failed: boolean
}

/** `--rules` and `expect --a11y`: comma-separated rule names, or `all`. */
export function parseRules(text: string | undefined, param: string): Rule[] {
  if (text === undefined || text.trim() === '' || text.trim() === 'all') return [...RULES]
  const names = text.split(',').map((name) => name.trim())
  const unknown = names.filter((name) => !RULES.some((rule) => rule === name))
  if (unknown.length > 0)
    throw new ParamError((name) => `${name(param)} takes ${RULES.join(', ')} or all, comma-separated (got ${unknown.join(', ')}).`)
  return RULES.filter((rule) => names.includes(rule))
}

/** Which findings fail the call: none, any, or those of these rules. */
export function failsOn(failOn: string | undefined, findings: readonly Finding[]): boolean {
  if (failOn === undefined || failOn === 'none') return false
  if (failOn === 'any') return findings.length > 0
  const rules = failOn.split(',').map((name) => name.trim())
  return findings.some((finding) => rules.includes(finding.rule))
}

/** One finding as a line: ref first, what was measured against what, and the fix. */
export function findingLine(f: Finding): string {
  const who = `${f.ref ?? 'text'} ${f.role} ${JSON.stringify(f.label)}`
  const at = f.rect ? ` at ${f.rect.x},${f.rect.y} ${f.rect.w}x${f.rect.h}` : ''
  return `${who}${at}: ${f.rule} ${f.measured}, needs ${f.threshold}; fix: ${f.fix}${f.assumed ? ` (assumed: ${f.assumed})` : ''}`
}
