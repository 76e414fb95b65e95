import type {Hook} from '@oclif/core/hooks'
import {UsageError} from '../lib/errors.js'
import {failureOutcome} from '../lib/output/outcome.js'
import {printOutcome} from '../lib/output/print.js'
import {nearestCommand} from './nearest-command.js'

/** An unknown command as one `✗` line, exit 1, printed like every other error: a URI pasted
 *  where the command goes keeps its token hidden. The nearest command is suggested. */
const hook: Hook.CommandNotFound = async function ({id, config}) {
  const ids = config.commands.flatMap((command) => [command.id, ...command.aliases])
  const nearest = nearestCommand(id, ids)
  const suggestion = nearest ? ` Did you mean \`tapir ${nearest}\`?` : ''
  await printOutcome(failureOutcome(new UsageError(`Unknown command ${id}.${suggestion} See \`tapir --help\` for the commands.`), false))
}

export default hook
