import {findingLine, parseRules} from '../a11y/findings.js'
import {defineVerb} from './define.js'

export const a11y = defineVerb({
  name: 'a11y',
  tool: 'tapir_a11y',
  title: 'Accessibility audit',
  addition: true,
  dispatch: 'tapir:a11y',
  summary: "Audit tap targets, labels and text contrast by flutter_test's rules.",
  cliExit: 'exits 1 when a finding matches --fail-on',
  details:
    "Reads snap, observe and a PNG screenshot (and the screenshot's geometry), nothing else; on Dusk 0.0.1, which gives no geometry, only label runs. tap-target: a tappable node at least 48x48 (44x44 on iOS), except links, hidden nodes and nodes at the view's edge. label: a tappable node other than a text field has a label. contrast: the screenshot's pixels over each text's rect, split into light and dark colours as flutter_test does, against WCAG's 4.5:1 (3:1 for large text); the app reports no font sizes, so 12 is assumed and said. Each finding gives the ref, what was measured, the threshold and a fix. docs/a11y.md has the details. This verb is tapir's own; the tool reference has no a11y.",
  example: '--rules=label,contrast',
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
      widgetRef: true,
      brief: 'Only the subtree under this eN ref.',
      description: "Audit only this ref's subtree (an eN from tapir:snap).",
    },
    {
      name: 'rules',
      type: 'string',
      brief: 'tap-target,label,contrast; all if omitted.',
      description: 'Comma-separated rules to run: tap-target, label, contrast; all when omitted.',
    },
    {
      name: 'failOn',
      type: 'string',
      brief: 'any, or rules failing the call.',
      description: 'Exit 1 when a finding matches: none (the default), any, or comma-separated rule names.',
    },
    {
      name: 'platform',
      type: 'string',
      options: ['android', 'ios'],
      cliOnly: true,
      description: "Tap-target size by platform: android 48x48, ios 44x44; taken from the session's device when omitted (as over MCP).",
    },
  ],
  validate(input) {
    parseRules(input.rules, 'rules')
    if (input.failOn !== undefined && !['none', 'any'].includes(input.failOn)) parseRules(input.failOn, 'failOn')
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
