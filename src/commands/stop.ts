import type {SessionLocation} from '../lib/session/location.js'
import {terminate} from '../lib/session/process.js'
import {checkOwnership} from '../lib/session/require-session.js'
import {deleteSession, readSession} from '../lib/session/store.js'
import type {Outcome} from '../lib/output/outcome.js'
import {SessionCommand} from './session-command.js'

export default class Stop extends SessionCommand {
  static override summary = 'End what tapir started for this project (the app, its browser) and remove the session.'
  static override examples = ['<%= config.bin %> stop']

  protected async sessionOutcome(_flags: Record<string, unknown>, location: SessionLocation): Promise<Outcome> {
    const session = readSession(location)
    if (!session) return {stdout: `✓ Nothing to stop (no session at ${location.path}).`, stderr: [], exitCode: 0}
    checkOwnership(location, session, process.cwd())
    const lines: string[] = []
    for (const [name, pid] of [['app', session.pid], ['chrome', session.chromePid]] as const) {
      if (typeof pid !== 'number') continue
      await terminate(pid)
      lines.push(`✓ Stopped ${name} pid=${pid}`)
    }
    deleteSession(location, session)
    lines.push(`✓ Removed session ${location.path}`)
    return {stdout: lines.join('\n'), stderr: [], exitCode: 0}
  }
}
