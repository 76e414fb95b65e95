import {Command} from '@oclif/core/command'
import * as Flags from '@oclif/core/flags'
import {UsageError} from '../lib/errors.js'
import type {Outcome} from '../lib/output/outcome.js'
import {failureOutcome} from '../lib/output/outcome.js'
import {printOutcome, printProgress} from '../lib/output/print.js'
import {SessionContext} from '../lib/runtime/session-context.js'
import type {VerbContext} from '../lib/verbs/types.js'

export const DEFAULT_TIMEOUT_MS = 30_000

type GlobalFlags = {json: boolean; state?: string; timeout: number}

/** Base of every tapir command: commands produce an Outcome; `run` prints it and sets the
 *  exit code in one place, so `tapir:run` can collect the same Outcome without printing. */
export abstract class TapirCommand extends Command {
  static override baseFlags = {
    json: Flags.boolean({description: 'Print the JSON result (or error) instead of the summary line.', helpGroup: 'GLOBAL'}),
    state: Flags.string({description: 'Session file to use instead of the per-project one (also TAPIR_STATE_FILE).', helpGroup: 'GLOBAL'}),
    timeout: Flags.integer({description: 'Milliseconds a call to the app may take.', default: DEFAULT_TIMEOUT_MS, min: 1, helpGroup: 'GLOBAL'}),
  }

  /** Set by tapir:run so every step shares one connection. */
  sharedContext: VerbContext | undefined

  override async run(): Promise<void> {
    await printOutcome(await this.produce())
  }

  /** Parses, runs and reads the result; never throws and never prints. */
  async produce(): Promise<Outcome> {
    let context: SessionContext | undefined
    try {
      const {flags, argv, args} = await this.parseFlags()
      const global = flags as GlobalFlags
      const verbContext =
        this.sharedContext ??
        (context = new SessionContext({stateFlag: global.state, env: process.env, cwd: process.cwd(), timeoutMs: global.timeout, progress: printProgress}))
      return await this.outcome(flags, verbContext, argv as string[], args)
    } catch (error) {
      return failureOutcome(error, this.argv.includes('--json'))
    } finally {
      context?.close()
    }
  }

  protected abstract outcome(flags: Record<string, unknown>, context: VerbContext, argv: string[], args: Record<string, unknown>): Promise<Outcome>

  private async parseFlags(): Promise<{flags: Record<string, unknown>; argv: unknown[]; args: Record<string, unknown>}> {
    try {
      return await this.parse(this.ctor as typeof TapirCommand)
    } catch (error) {
      throw parseFailure(error, this.id)
    }
  }
}

/** oclif's parse errors (unknown flag, bad value) as a one-line usage error, exit 1. */
export function parseFailure(error: unknown, id: string | undefined): UsageError {
  const text = error instanceof Error ? error.message.split('\n')[0]! : String(error)
  return new UsageError(`${text.replace(/\.$/, '')}. See \`tapir ${id} --help\`.`)
}
