import {defineCommand} from '../lib/commands/types.js'
import {EXIT} from '../lib/output/exit-codes.js'
import type {Outcome} from '../lib/output/outcome.js'
import {diagnose} from '../lib/runtime/doctor.js'

export const DOCTOR = defineCommand({
  id: 'doctor',
  summary:
    "Check, one line each, what tapir needs: this project's set-up (tapir in pubspec.yaml and main()), its session, the VM Service, tapir in the app, frames, and Chrome for a web app.",
  description: 'Exits 1 when a check that stops tapir from working fails (✗); a ⚠ line is worth knowing but does not.',
  examples: ['<%= config.bin %> doctor', '<%= config.bin %> doctor --json'],
  params: [],
  globals: 'all',
  session: 'reads',
  mcp: {
    tool: 'tapir_doctor',
    title: 'Check the set-up',
    summary: 'Check the set-up, session, VM Service, tapir in the app, frames and Chrome.',
    kind: 'read',
    params: [],
    input: () => ({}),
  },
  async run(flags, {location, verbs: context}): Promise<Outcome> {
    const checks = await diagnose(location, process.cwd(), Math.min(flags.timeout, 5000), context.origin === 'mcp' ? 'mcp' : 'cli')
    const exitCode = checks.some((check) => !check.ok && check.blocking) ? EXIT.failed : EXIT.ok
    if (flags.json) return {stdout: JSON.stringify({checks}), stderr: [], exitCode}
    const lines = checks.map((check) => `${check.ok ? '✓' : check.blocking ? '✗' : '⚠'} ${check.name}: ${check.detail}`)
    return {stdout: lines.join('\n'), stderr: [], exitCode}
  },
})
