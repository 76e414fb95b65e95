import {TapirError, UsageError} from '../lib/errors.js'
import {checkValue, requireParams} from '../lib/verbs/input.js'
import type {Outcome} from '../lib/output/outcome.js'
import {resultOutcome, softFailureOutcome} from '../lib/output/outcome.js'
import type {Input, Verb, VerbContext} from '../lib/verbs/types.js'
import {TapirCommand} from './tapir-command.js'
import {argsFor, flagsFor} from './verb-flags.js'

/** The oclif class of one catalogue verb: flags from its params, output from its report. */
export function verbCommand(verb: Verb): typeof TapirCommand {
  return class extends TapirCommand {
    static override summary = verb.summary
    static override flags = flagsFor(verb)
    static override args = argsFor(verb)
    static override examples = examplesFor(verb)

    protected async outcome(flags: Record<string, unknown>, context: VerbContext, _argv: string[], args: Record<string, unknown>): Promise<Outcome> {
      const input: Input = {}
      for (const param of verb.params) {
        const value = (flags[param.name] ?? args[param.name]) as Input[string]
        if (flags[param.name] !== undefined && args[param.name] !== undefined && flags[param.name] !== args[param.name]) {
          throw new UsageError(`${param.name} is given twice (as an argument and as --${param.name}); give it once.`)
        }
        if (value === undefined) continue
        checkValue(param, value)
        input[param.name] = value
      }
      requireParams(verb, input)
      verb.validate?.(input)
      let result
      try {
        result = await verb.execute(context, input)
      } catch (error) {
        const soft = error instanceof TapirError ? verb.softFailure?.(error) : undefined
        if (!soft) throw error
        return softFailureOutcome(error as TapirError, soft, flags.json === true)
      }
      return resultOutcome(verb, result, input, flags.json === true)
    }
  }
}

function examplesFor(verb: Verb): string[] {
  return [`<%= config.bin %> <%= command.id %>${verb.example ? ` ${verb.example}` : ''}`]
}
