import {RULES, type Finding, type Rule} from '../a11y/types.js'
import {ParamError} from '../errors.js'
import {defineVerb} from './define.js'

/** What the audit reports. */
export interface Audit {
  [key: string]: unknown
  findings: Finding[]
  /** The rules that ran. */
  rules: Rule[]
  /** The tap target's side in logical pixels, and the platform it is for. */
  tapTarget: {size: number; platform: string}
  /** How many nodes of the screen were read. */
  nodes: number
  /** What the audit assumed or could not read, screen-wide. */
  notes: string[]
  /** A finding matched --fail-on. */
  failed: boolean
}

/** `--rules` and `expect --a11y`: comma-separated rule names, or `all`. */
export function parseRules(text: string | undefined, words: (name: string) => string, param: string): Rule[] {
  if (text === undefined || text.trim() === '' || text.trim() === 'all') return [...RULES]
  const names = text.split(',').map((name) => name.trim())
  const unknown = names.filter((name) => !(RULES as readonly string[]).includes(name))
  if (unknown.length > 0)
    throw new ParamError(() => `${words(param)} takes ${RULES.join(', ')} or all, comma-separated (got ${unknown.join(', ')}).`)
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
  return `${who}${at}: ${f.rule} ${f.measured} < ${f.threshold}; fix: ${f.fix}${f.assumed ? ` (assumed ${f.assumed})` : ''}`
}

export const a11y = defineVerb({
  name: 'a11y',
  tool: 'tapir_a11y',
  title: 'Accessibility audit',
  addition: true,
  dispatch: 'tapir:a11y',
  summary: "Audit the screen (or one ref's subtree) by flutter_test's accessibility rules: tap-target size, labels, text contrast.",
  cliExit: 'exits 1 when a finding matches --fail-on',
  details:
    "Reads snap, observe and a PNG screenshot, nothing else, so it works the same on the tapir package and Dusk 0.0.1. tap-target: a tappable node at least 48x48 (44x44 on iOS), except links, hidden nodes and nodes at the view's edge. label: a tappable node other than a text field has a label. contrast: the screenshot's pixels over each text's rect, split into light and dark colours as flutter_test does, against WCAG's 4.5:1 (3:1 for large text); the app reports no font sizes, so 12 is assumed and said. Each finding gives the ref, what was measured, the threshold and a fix. docs/a11y.md has the details. This verb is tapir's own; the tool reference has no a11y.",
  example: '--fail-on=any',
  exampleBefore: [
    'tapir tapir:run "find --key=email" "fill --ref=q1 --text=ada@example.com" "find --key=password" "fill --ref=q2 --text=hunter22" "find --key=signIn" "tap --ref=q3" "wait --text=Monitors" "navigate --route=/accessibility"',
  ],
  kind: 'read',
  dusk: {on: 'unchanged', note: "reads snap, observe and screenshot, each through 0.0.1's own call", tool: null},
  step: 'any',
  record: {as: 'nothing'},
  params: [
    {
      name: 'within',
      type: 'string',
      brief: 'eN of the subtree to audit.',
      description: "Audit only this ref's subtree (an eN from tapir:snap).",
    },
    {
      name: 'rules',
      type: 'string',
      brief: 'tap-target,label,contrast (default all).',
      description: 'Comma-separated rules to run: tap-target, label, contrast; all when omitted.',
    },
    {
      name: 'failOn',
      type: 'string',
      default: 'none',
      brief: 'none, any, or rule names: which findings fail the call.',
      description: 'Exit 1 when a finding matches: none (the default), any, or comma-separated rule names.',
    },
    {
      name: 'platform',
      type: 'string',
      options: ['android', 'ios'],
      brief: 'Tap target 48 (android) or 44 (ios); default from the device.',
      description: "Tap-target size by platform: android 48x48, ios 44x44; taken from the session's device when omitted.",
    },
  ],
  validate(input) {
    parseRules(input.rules, (name) => name, 'rules')
    if (input.failOn !== undefined && !['none', 'any'].includes(input.failOn)) parseRules(input.failOn, (name) => name, 'failOn')
  },
  execute: async (call, input) => (await import('./a11y-audit.js')).audit(call, input),
  failed: (result) => result.failed,
  mcpIsError: (result) => result.failed,
  mcpText: (result) =>
    [
      result.findings.length === 0
        ? `No findings (${result.rules.join(', ')}; ${result.nodes} nodes).`
        : `${result.findings.length} findings:`,
      ...result.findings.map(findingLine),
      ...result.notes.map((note) => `note: ${note}`),
    ].join('\n'),
  report: (result) => ({
    stdout: [
      ...result.findings.map((f) => `✗ ${findingLine(f)}`),
      result.findings.length === 0
        ? `✓ No accessibility findings (${result.rules.join(', ')}; ${result.nodes} nodes, tap target ${result.tapTarget.size}x${result.tapTarget.size} for ${result.tapTarget.platform})`
        : `${result.findings.length} finding${result.findings.length === 1 ? '' : 's'} (${result.rules.join(', ')}; ${result.nodes} nodes, tap target ${result.tapTarget.size}x${result.tapTarget.size} for ${result.tapTarget.platform})`,
      ...result.notes.map((note) => `note: ${note}`),
    ].join('\n'),
  }),
})
