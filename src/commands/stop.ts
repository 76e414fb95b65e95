import {rmSync} from 'node:fs'
import type {Outcome} from '../lib/output/outcome.js'
import {linesOutcome} from '../lib/output/outcome.js'
import {SIM_MAIN} from '../lib/runtime/background-sim.js'
import {chromeMarker, removeChromeProfile} from '../lib/runtime/chrome-for-app.js'
import type {SessionLocation} from '../lib/session/location.js'
import {isOurs, terminate} from '../lib/session/process.js'
import type {Session} from '../lib/session/session.js'
import {deleteSession, readOwnSession} from '../lib/session/store.js'
import {SessionCommand} from './session-command.js'

export default class Stop extends SessionCommand {
  static override summary = 'End what tapir started for this project (the app, its browser) and remove the session.'
  static override examples = ['<%= config.bin %> stop']

  protected async sessionOutcome(flags: Record<string, unknown>, location: SessionLocation): Promise<Outcome> {
    const json = flags.json === true
    let session: Session | undefined
    try {
      session = readOwnSession(location)
    } catch {
      rmSync(location.path, {force: true})
      return linesOutcome([`✓ Removed the unreadable session ${location.path}`], {removed: location.path, stopped: []}, json)
    }
    if (!session) return linesOutcome([`✓ Nothing to stop (no session at ${location.path}).`], {removed: null, stopped: []}, json)
    const lines: string[] = []
    const stopped: number[] = []
    // Only a process still running what tapir started is signalled: a recycled pid is not ours.
    for (const [name, pid, marker] of [['app', session.pid, SIM_MAIN], ['chrome', session.chromePid, chromeMarker(session)]] as const) {
      if (typeof pid !== 'number') continue
      if (isOurs(pid, marker)) {
        await terminate(pid)
        stopped.push(pid)
        lines.push(`✓ Stopped ${name} pid=${pid}`)
      } else {
        lines.push(`✓ ${name} pid=${pid} is no longer running`)
      }
    }
    // The browser's throwaway profile goes with it (Chrome and its helpers have exited by now).
    removeChromeProfile(session)
    deleteSession(location, session)
    lines.push(`✓ Removed session ${location.path}`)
    return linesOutcome(lines, {removed: location.path, stopped}, json)
  }
}
