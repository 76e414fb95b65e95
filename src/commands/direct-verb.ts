import {failureOutcome} from '../lib/output/outcome.js'
import {printOutcome} from '../lib/output/print.js'
import {printable} from '../lib/output/printable.js'
import {VERBS} from '../lib/verbs/index.js'
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
  const verb = VERBS.find((candidate) => `tapir:${candidate.name}` === id)
  const values = verb && readVerbArgv(verb, rest)
  if (!verb || !values) return false
  ignoreClosedStdout()
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

/** A reader that stops early (`tapir tapir:snap | head -1`) is no error, as on oclif's path,
 *  where oclif's command module ignores the same. Any other failure to write (a full disk) is
 *  one line and exit 1, not an uncaught error that shows a line of the minified bundle. */
function ignoreClosedStdout(): void {
  process.stdout.on('error', (error: NodeJS.ErrnoException) => {
    if (error.code === 'EPIPE') return
    process.exitCode = 1
    process.stderr.write(`✗ Cannot write the output: ${printable(error.message, true)}\n`)
  })
}
