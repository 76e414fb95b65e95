import {EXIT} from '../lib/output/exit-codes.js'
import type {Outcome} from '../lib/output/outcome.js'
import {diagnose} from '../lib/runtime/doctor.js'
import type {SessionLocation} from '../lib/session/location.js'
import type {VerbContext} from '../lib/verbs/types.js'
import {SessionCommand} from '../oclif/session-command.js'
import type {FlagsOf} from '../oclif/tapir-command.js'

export default class Doctor extends SessionCommand<typeof Doctor> {
  static override summary =
    "Check, one line each, what tapir needs: this project's set-up (tapir in pubspec.yaml and main()), its session, the VM Service, tapir in the app, frames, and Chrome for a web app."
  static override description = 'Exits 1 when a check that stops tapir from working fails (✗); a ⚠ line is worth knowing but does not.'
  static override examples = ['<%= config.bin %> doctor', '<%= config.bin %> doctor --json']

  protected parseInput() {
    return this.parse(Doctor)
  }

  protected async sessionOutcome(flags: FlagsOf<typeof Doctor>, location: SessionLocation, context: VerbContext): Promise<Outcome> {
    const checks = await diagnose(location, process.cwd(), Math.min(flags.timeout, 5000), context.origin === 'mcp' ? 'mcp' : 'cli')
    const exitCode = checks.some((check) => !check.ok && check.blocking) ? EXIT.failed : EXIT.ok
    if (flags.json) return {stdout: JSON.stringify({checks}), stderr: [], exitCode}
    const lines = checks.map((check) => `${check.ok ? '✓' : check.blocking ? '✗' : '⚠'} ${check.name}: ${check.detail}`)
    return {stdout: lines.join('\n'), stderr: [], exitCode}
  }
}
