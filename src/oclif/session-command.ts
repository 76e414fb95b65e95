import type {Command} from '@oclif/core/command'
import type {Outcome} from '../lib/output/outcome.js'
import type {SessionLocation} from '../lib/session/location.js'
import {locateSession} from '../lib/session/location.js'
import {withSessionLock} from '../lib/session/lock.js'
import type {VerbContext} from '../lib/verbs/types.js'
import type {FlagsOf} from './tapir-command.js'
import {TapirCommand} from './tapir-command.js'

/** A command about the session itself (start, attach, status, stop) rather than a verb. */
export abstract class SessionCommand<T extends typeof Command> extends TapirCommand<T> {
  /** start, attach and stop change the session: they hold its lock while they run. */
  protected changesSession = false

  protected async outcome(flags: FlagsOf<T>, context: VerbContext): Promise<Outcome> {
    const location = locateSession({stateFlag: flags.state, env: process.env, cwd: process.cwd()})
    if (!this.changesSession) return this.sessionOutcome(flags, location, context)
    return withSessionLock(location, this.id ?? 'tapir', () => this.sessionOutcome(flags, location, context))
  }

  /** `context` is where progress lines go (stderr on the CLI, notifications over MCP). */
  protected abstract sessionOutcome(flags: FlagsOf<T>, location: SessionLocation, context: VerbContext): Promise<Outcome>
}
