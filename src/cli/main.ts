import {printOutcome, reportStdoutFailures} from '../lib/output/print.js'
import {verbNamed} from '../lib/verbs/index.js'
import {verbLineOutcome} from './verb-outcome.js'

/**
 * Runs `tapir tapir:<verb> ...` with no oclif loaded: what agents and scripts run most, so what
 * start-up is measured by (bin/run.cjs runs it from the one bundle the build makes). Resolves to
 * false, having done nothing, for a command that is not a catalogue verb: oclif runs that one.
 */
export async function runVerb(argv: readonly string[]): Promise<boolean> {
  const [id = '', ...rest] = argv
  const verb = id.startsWith('tapir:') ? verbNamed(id.slice('tapir:'.length)) : undefined
  if (!verb) return false
  reportStdoutFailures()
  await printOutcome(await verbLineOutcome(verb, rest))
  return true
}
