import {Command} from '@oclif/core/command'
import {Config} from '@oclif/core/config'
import * as Flags from '@oclif/core/flags'
import type {LoadOptions} from '@oclif/core/interfaces'
import {GLOBAL_FLAG_RULES} from '../cli/flag-rules.js'
import type {Outcome} from '../lib/output/outcome.js'
import {printOutcome} from '../lib/output/print.js'

const {json, state, timeout} = GLOBAL_FLAG_RULES
const GLOBAL_FLAGS = {
  json: Flags.boolean({description: json.description, helpGroup: 'GLOBAL'}),
  state: Flags.string({description: state.description, helpGroup: 'GLOBAL'}),
  timeout: Flags.integer({description: timeout.description, default: timeout.default, min: timeout.min, helpGroup: 'GLOBAL'}),
}

/** Base of the oclif class of every verb and command (made from its definition): it produces an
 *  Outcome through the one reader and runner; `run` prints it and sets the exit code in one place.
 *  oclif runs it only when the bundle cannot load (a dist/ built by tsc alone). */
export abstract class OutcomeCommand extends Command {
  static override baseFlags = GLOBAL_FLAGS

  /** oclif's run loads the Config it is handed a second time (theme file, shell, platform and
   *  all), for a command built on another copy of oclif, as a plugin's may be; tapir's commands
   *  are built on this one, so a loaded Config serves as it is. */
  static override async run<T extends Command>(
    this: new (argv: string[], config: Config) => T,
    argv?: string[],
    opts?: LoadOptions,
  ): Promise<ReturnType<T['run']>> {
    if (!(opts instanceof Config)) return super.run(argv, opts)
    const command = new this(argv ?? process.argv.slice(2), opts)
    // Every tapir command is one; the check is what lets this class call its protected _run.
    if (!(command instanceof OutcomeCommand)) return super.run(argv, opts)
    return command._run<ReturnType<T['run']>>()
  }

  override async run(): Promise<void> {
    await printOutcome(await this.produce())
  }

  /** Reads the command line, runs and reads the result; never throws and never prints. */
  abstract produce(): Promise<Outcome>
}
