import type {Hook} from '@oclif/core/hooks'
import {UsageError} from '../lib/errors.js'
import {failureOutcome} from '../lib/output/outcome.js'
import {printOutcome} from '../lib/output/print.js'

/** An unknown command as one `✗` line, exit 1, printed like every other error: a URI pasted
 *  where the command goes keeps its token hidden. */
const hook: Hook.CommandNotFound = async function ({id}) {
  await printOutcome(failureOutcome(new UsageError(`Unknown command ${id}. See \`tapir --help\` for the commands.`), false))
}

export default hook
