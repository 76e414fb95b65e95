import type {FlagInput} from '@oclif/core/interfaces'
import {cliSummary} from '../lib/verbs/define.js'
import type {Verb, VerbContext} from '../lib/verbs/types.js'
import type {FlagsOf} from './tapir-command.js'
import {TapirCommand} from './tapir-command.js'
import {argsFor, flagsFor, missingFlagError, usageFor} from './verb-flags.js'
import {verbOutcome} from './verb-outcome.js'

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

    protected async outcome(flags: FlagsOf<typeof VerbCommand>, context: VerbContext, _argv: string[], args: Record<string, unknown>) {
      return verbOutcome(verb, {flags, args}, context)
    }
  }
  return VerbCommand
}

function examplesFor(verb: Verb): string[] {
  return [`<%= config.bin %> <%= command.id %>${verb.example ? ` ${verb.example}` : ''}`]
}
