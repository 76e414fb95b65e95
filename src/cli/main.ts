import {commandNamed} from '../lib/commands/run-command.js'
import type {AnyCommand} from '../lib/commands/types.js'
import {printOutcome, reportStdoutFailures} from '../lib/output/print.js'
import {verbNamed} from '../lib/verbs/index.js'
import {HelpAsked} from './command-line.js'
import {commandLineOutcome} from './command-outcome.js'
import {verbLineOutcome} from './verb-outcome.js'

/**
 * Runs a tapir command line with no oclif loaded, for a verb and a command alike (bin/run.cjs
 * runs it from the one bundle the build makes). Resolves to false, having done nothing, for a
 * line oclif answers instead: an unknown command (its nearest name), and help (`--help` or `-h`
 * where a flag goes, as the one reader tells).
 */
export async function runLine(argv: readonly string[], commands: readonly AnyCommand[]): Promise<boolean> {
  const [id = '', ...rest] = argv
  const verb = id.startsWith('tapir:') ? verbNamed(id.slice('tapir:'.length)) : undefined
  const command = verb ? undefined : commandNamed(commands, id)
  if (!verb && !command) return false
  reportStdoutFailures()
  let outcome
  try {
    outcome = verb
      ? await verbLineOutcome(verb, rest, undefined, {help: true})
      : command && (await commandLineOutcome(command, rest, commands))
  } catch (error) {
    if (error instanceof HelpAsked) return false
    throw error
  }
  if (outcome) await printOutcome(outcome)
  return true
}
