import type {FlagInput} from '@oclif/core/interfaces'
import {verbLineOutcome} from '../cli/verb-outcome.js'
import type {Outcome} from '../lib/output/outcome.js'
import {cliSummary} from '../lib/verbs/define.js'
import type {Verb} from '../lib/verbs/types.js'
import {OutcomeCommand} from './outcome-command.js'
import {argsFor, flagsFor, usageFor} from './verb-flags.js'

/** The oclif class of one catalogue verb, for help, the command list and completion: its flags
 *  come from the verb's params, and its command line is read by the one reader, as everywhere. */
export function verbCommand(verb: Verb) {
  class VerbCommand extends OutcomeCommand {
    static override summary = cliSummary(verb)
    static override description = verb.details
    // Built from the catalogue at run time: typed as any flag, and each value checked against its param below.
    static override flags: FlagInput = flagsFor(verb)
    static override args = argsFor(verb)
    static override examples = examplesFor(verb)
    static override usage = usageFor(verb)

    // oclif's parse never runs: help and completion read the flags, the one reader the line.
    produce(): Promise<Outcome> {
      this.parsed = true
      return verbLineOutcome(verb, this.argv)
    }
  }
  return VerbCommand
}

function examplesFor(verb: Verb): string[] {
  return [`<%= config.bin %> <%= command.id %>${verb.example ? ` ${verb.example}` : ''}`]
}
