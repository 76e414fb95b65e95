import type {Command} from '@oclif/core/command'
import {linesOutcome, type Outcome} from '../lib/output/outcome.js'
import {printProgress} from '../lib/output/print.js'
import type {ReloadKind} from '../lib/runtime/reload-app.js'
import {SessionContext} from '../lib/runtime/session-context.js'
import type {SessionLocation} from '../lib/session/location.js'
import {Deadline} from '../lib/vm/deadline.js'
import {SessionCommand} from './session-command.js'
import type {FlagsOf} from './tapir-command.js'

/** How long flutter may take to recompile, on top of --timeout. */
const COMPILE_MS = 60_000

/** `tapir reload` and `tapir hot-restart`: one reload of the session's app. */
export abstract class ReloadCommand<T extends typeof Command> extends SessionCommand<T> {
  protected abstract readonly reloadKind: ReloadKind

  protected async sessionOutcome(flags: FlagsOf<T>, location: SessionLocation): Promise<Outcome> {
    const context = new SessionContext({
      stateFlag: flags.state,
      env: process.env,
      cwd: process.cwd(),
      timeoutMs: flags.timeout,
      progress: printProgress,
    })
    void location
    try {
      const started = Date.now()
      const reloaded = await context.reload(this.reloadKind, new Deadline(flags.timeout, COMPILE_MS))
      const durationMs = Date.now() - started
      const what = this.reloadKind === 'reload' ? 'Hot reloaded' : 'Hot restarted'
      const said = reloaded.message ? ` (${reloaded.message})` : ''
      return linesOutcome(
        [`✓ ${what} through ${reloaded.via} in ${durationMs} ms${said}`],
        {kind: this.reloadKind, via: reloaded.via, message: reloaded.message, durationMs},
        flags.json,
      )
    } finally {
      context.close()
    }
  }
}
