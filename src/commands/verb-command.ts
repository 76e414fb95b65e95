import type {FlagInput} from '@oclif/core/interfaces'
import {TapirError, UsageError} from '../lib/errors.js'
import type {Outcome} from '../lib/output/outcome.js'
import {resultOutcome, softFailureOutcome} from '../lib/output/outcome.js'
import {cliSummary} from '../lib/verbs/define.js'
import {executeVerb} from '../lib/verbs/execute-verb.js'
import {checkValue, isValueOf, requireParams} from '../lib/verbs/input.js'
import type {Input, Verb, VerbContext} from '../lib/verbs/types.js'
import type {FlagsOf} from './tapir-command.js'
import {TapirCommand} from './tapir-command.js'
import {argsFor, flagsFor, missingFlagError, usageFor} from './verb-flags.js'

/** The oclif class of one catalogue verb: flags from its params, output from its report. */
export function verbCommand(verb: Verb) {
  class VerbCommand extends TapirCommand<typeof VerbCommand> {
    static override summary = cliSummary(verb)
    static override description = verb.details
    // Built from the catalogue at run time: typed as any flag, and each value checked against its param below.
    static override flags: FlagInput = flagsFor(verb)
    static override args = argsFor(verb)
    static override examples = examplesFor(verb)
    static override usage = usageFor(verb)

    protected async parseInput() {
      try {
        return await this.parse(VerbCommand)
      } catch (error) {
        throw missingFlagError(verb, error) ?? error
      }
    }

    protected async outcome(
      flags: FlagsOf<typeof VerbCommand>,
      context: VerbContext,
      _argv: string[],
      args: Record<string, unknown>,
    ): Promise<Outcome> {
      const input: Input = {}
      for (const param of verb.params) {
        const value: unknown = flags[param.name] ?? args[param.name]
        if (flags[param.name] !== undefined && args[param.name] !== undefined && flags[param.name] !== args[param.name]) {
          throw new UsageError(`${param.name} is given twice (as an argument and as --${param.name}); give it once.`)
        }
        if (value === undefined) continue
        // A pass-through value goes to the app as typed: the app answers for it.
        if (param.passThrough && typeof value === 'string') {
          input[param.name] = value
          continue
        }
        if (!isValueOf(param, value))
          throw new UsageError(`--${param.name} takes ${param.type === 'string[]' ? 'a comma-separated list' : `a ${param.type}`}.`)
        checkValue(param, value)
        input[param.name] = value
      }
      requireParams(verb.params, input)
      verb.validate?.(input)
      let result
      try {
        result = await executeVerb(verb, context, input)
      } catch (error) {
        if (!(error instanceof TapirError)) throw error
        const soft = verb.softFailure?.(error, input)
        if (!soft) throw error
        return softFailureOutcome(error, soft, flags.json)
      }
      return resultOutcome(verb, result, input, flags.json)
    }
  }
  return VerbCommand
}

function examplesFor(verb: Verb): string[] {
  return [`<%= config.bin %> <%= command.id %>${verb.example ? ` ${verb.example}` : ''}`]
}
