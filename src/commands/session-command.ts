import type {SessionLocation} from '../lib/session/location.js'
import {locateSession} from '../lib/session/location.js'
import {withSessionLock} from '../lib/session/lock.js'
import type {Outcome} from '../lib/output/outcome.js'
import {TapirCommand} from './tapir-command.js'

/** A command about the session itself (start, attach, status, stop) rather than a verb. */
export abstract class SessionCommand extends TapirCommand {
  /** start, attach and stop change the session: they hold its lock while they run. */
  protected changesSession = false

  protected async outcome(flags: Record<string, unknown>): Promise<Outcome> {
    const location = locateSession({stateFlag: flags.state as string | undefined, env: process.env, cwd: process.cwd()})
    if (!this.changesSession) return this.sessionOutcome(flags, location)
    return withSessionLock(location, this.id ?? 'tapir', () => this.sessionOutcome(flags, location))
  }

  protected abstract sessionOutcome(flags: Record<string, unknown>, location: SessionLocation): Promise<Outcome>
}
