import {Command} from '@oclif/core/command'
import {Config} from '@oclif/core/config'
import * as Flags from '@oclif/core/flags'
import type {InferredFlags, LoadOptions} from '@oclif/core/interfaces'
import {GLOBAL_FLAG_RULES} from '../cli/flag-rules.js'
import {produceOutcome} from '../cli/produce-outcome.js'
import {UsageError} from '../lib/errors.js'
import type {Outcome} from '../lib/output/outcome.js'
import {printOutcome} from '../lib/output/print.js'
import type {VerbContext} from '../lib/verbs/types.js'

const {json, state, timeout} = GLOBAL_FLAG_RULES
const GLOBAL_FLAGS = {
  json: Flags.boolean({description: json.description, helpGroup: 'GLOBAL'}),
  state: Flags.string({description: state.description, helpGroup: 'GLOBAL'}),
  timeout: Flags.integer({description: timeout.description, default: timeout.default, min: timeout.min, helpGroup: 'GLOBAL'}),
}

/** The parsed flags of command class `T`: its own and the global ones, each with its type. */
export type FlagsOf<T extends typeof Command> = InferredFlags<typeof GLOBAL_FLAGS & T['flags']>

/** What a command's parse gives: its flags, typed, and the words that are not flags. */
export type ParsedInput<T extends typeof Command> = {flags: FlagsOf<T>; argv: unknown[]; args: Record<string, unknown>}

/** Base of every tapir command: a command produces an Outcome; `run` prints it and sets the
 *  exit code in one place, so tapir:run, restart and the MCP session tools can collect the same
 *  Outcome without printing. */
export abstract class OutcomeCommand extends Command {
  static override baseFlags = GLOBAL_FLAGS

  /** Set by a command that runs others in its process, so they share its connection. */
  sharedContext: VerbContext | undefined

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

/** Base of a command whose flags oclif reads: each names its own class
 *  (`extends TapirCommand<typeof Attach>`) and parses with it, so its flags reach `outcome` with
 *  their types. (A catalogue verb's line is read by src/cli/verb-line.ts instead.) */
export abstract class TapirCommand<T extends typeof Command> extends OutcomeCommand {
  async produce(): Promise<Outcome> {
    return produceOutcome(
      this.argv,
      () => this.parseFlags(),
      ({flags, argv, args}, context) => this.outcome(flags, context, argv.map(String), args),
      this.sharedContext,
    )
  }

  protected abstract outcome(flags: FlagsOf<T>, context: VerbContext, argv: string[], args: Record<string, unknown>): Promise<Outcome>

  /** `this.parse(<the command's own class>)`: what gives the flags their types. */
  protected abstract parseInput(): Promise<ParsedInput<T>>

  private async parseFlags(): Promise<ParsedInput<T>> {
    try {
      return await this.parseInput()
    } catch (error) {
      // A command's own reading of a parse failure stands as it is.
      throw error instanceof UsageError ? error : parseFailure(error, this.id)
    }
  }
}

/** oclif's parse errors (unknown flag, bad value) as a one-line usage error, exit 1, keeping
 *  oclif's reason: its first line only names the flag ("Parsing --timeout"), the next says why. */
export function parseFailure(error: unknown, id: string | undefined): UsageError {
  const lines = (error instanceof Error ? error.message : String(error))
    .split('\n')
    .map((line) => line.trim().replace(/[.:]$/, ''))
    // oclif wraps the reason in a header line and a help hint; keep the reason itself.
    .filter((line) => line !== '' && !line.startsWith('See more help') && !/^The following errors? occurred$/.test(line))
  const [first = 'Cannot read the flags', ...reasons] = lines
  const text = reasons.length === 0 ? first : `${first}${/^Parsing --\S+$/.test(first) ? ':' : '.'} ${reasons.join('; ')}`
  return new UsageError(`${text}. See \`tapir ${id} --help\`.`)
}
