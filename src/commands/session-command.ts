import type {SessionLocation} from '../lib/session/location.js'
import {locateSession} from '../lib/session/location.js'
import type {Outcome} from '../lib/output/outcome.js'
import {TapirCommand} from './tapir-command.js'

/** A command about the session itself (start, attach, status, stop) rather than a verb. */
export abstract class SessionCommand extends TapirCommand {
  protected async outcome(flags: Record<string, unknown>): Promise<Outcome> {
    const location = locateSession({stateFlag: flags.state as string | undefined, env: process.env, cwd: process.cwd()})
    return this.sessionOutcome(flags, location)
  }

  protected abstract sessionOutcome(flags: Record<string, unknown>, location: SessionLocation): Promise<Outcome>
}
