import * as Args from '@oclif/core/args'
import * as Flags from '@oclif/core/flags'
import type {AlphabetLowercase, FlagInput} from '@oclif/core/interfaces'
import {commandLineOutcome} from '../cli/command-outcome.js'
import type {AnyCommand, CommandParam} from '../lib/commands/types.js'
import type {Outcome} from '../lib/output/outcome.js'
import {OutcomeCommand} from './outcome-command.js'

/** The oclif class of one command, for help, the command list and completion: its flags and
 *  arguments come from the command's params, and its line is read by the one reader. */
export function commandClass(command: AnyCommand, commands: readonly AnyCommand[]) {
  const positional: readonly string[] = command.positional ?? []
  class CommandClass extends OutcomeCommand {
    static override summary = command.summary
    static override description = command.description
    static override examples = [...command.examples]
    static override aliases = [...(command.aliases ?? [])]
    // A command about files only takes no --json, --state or --timeout of the session's.
    static override baseFlags = globalFlags(command) as typeof OutcomeCommand.baseFlags
    // Made from the definition at run time: typed as any flag; the reader checks each value.
    static override flags: FlagInput = Object.fromEntries(
      command.params.filter((param) => !positional.includes(param.name)).map((param) => [param.name, flagFor(param)]),
    )
    static override args = Object.fromEntries(
      positional
        .flatMap((name) => {
          const param = command.params.find((candidate) => candidate.name === name)
          if (!param) return []
          // ignoreStdin: oclif would otherwise read a missing argument from a piped stdin.
          const options = param.options ? {options: [...param.options]} : {}
          return [[name, Args.string({description: param.description, required: param.required === true, ignoreStdin: true, ...options})]]
        })
        .concat(restArg(command)),
    )
    static override strict = command.rest === undefined

    // oclif's parse never runs: help and completion read the flags, the one reader the line.
    produce(): Promise<Outcome> {
      this.parsed = true
      return commandLineOutcome(command, this.argv, commands)
    }
  }
  return CommandClass
}

function flagFor(param: CommandParam) {
  const common = {
    description: param.description,
    ...(param.required ? {required: true} : {}),
    ...(param.char === undefined ? {} : {char: param.char as AlphabetLowercase}),
  }
  const options = param.options ? {options: [...param.options]} : {}
  const bounds = {
    ...(param.minimum === undefined ? {} : {min: param.minimum}),
    ...(param.maximum === undefined ? {} : {max: param.maximum}),
  }
  switch (param.type) {
    case 'boolean':
      return Flags.boolean({...common, allowNo: true, ...(typeof param.default === 'boolean' ? {default: param.default} : {})})
    case 'integer':
      return Flags.integer({...common, ...bounds, ...(typeof param.default === 'number' ? {default: param.default} : {})})
    default:
      return param.multiple
        ? Flags.string({...common, ...options, multiple: true})
        : Flags.string({...common, ...options, ...(typeof param.default === 'string' ? {default: param.default} : {})})
  }
}

function globalFlags(command: AnyCommand) {
  const {json, ...session} = OutcomeCommand.baseFlags
  return command.globals === 'all' ? {json, ...session} : command.globals === 'session' ? session : {}
}

/** The rest words taken anywhere on the line (tapir:run's steps, test's paths), shown in help as
 *  the argument they are; flutter run's, after `--`, are told of in start's description. */
function restArg(command: AnyCommand) {
  const rest = command.rest
  return rest === undefined || rest.afterDashes ? [] : [[rest.name, Args.string({description: rest.description, ignoreStdin: true})]]
}
