import {failureOutcome} from '../lib/output/outcome.js'
import {printOutcome, reportStdoutFailures} from '../lib/output/print.js'
import {verbNamed} from '../lib/verbs/index.js'
import {readVerbArgv} from './direct-argv.js'
import {produceOutcome} from './produce-outcome.js'
import {verbOutcome} from './verb-outcome.js'

/**
 * Runs `tapir:<verb> ...` without oclif, for the fast path (bin/run.cjs): the same reading of the
 * values, the same session context, verb and printing as the verb's oclif command, in a bundle a
 * third the size. Resolves to false, having done nothing, for a command line it leaves to oclif.
 */
export async function runVerbDirectly(argv: readonly string[]): Promise<boolean> {
  const [id, ...rest] = argv
  const verb = id?.startsWith('tapir:') ? verbNamed(id.slice('tapir:'.length)) : undefined
  const values = verb && readVerbArgv(verb, rest)
  if (!verb || !values) return false
  reportStdoutFailures()
  try {
    await printOutcome(
      await produceOutcome(
        rest,
        async () => values,
        (read, context) => verbOutcome(verb, read, context),
      ),
    )
  } catch (error) {
    // Nothing gets here but a fault of tapir's own: produceOutcome turns every failure into an Outcome.
    await printOutcome(failureOutcome(error, values.flags.json === true))
  }
  return true
}
