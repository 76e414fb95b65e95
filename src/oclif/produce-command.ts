import type {Config} from '@oclif/core/config'
import type {Outcome} from '../lib/output/outcome.js'
import type {VerbContext} from '../lib/verbs/types.js'
import {OutcomeCommand} from './tapir-command.js'

/** Runs another tapir command in this process, found in oclif's own registry, and returns its
 *  Outcome without printing it (restart's stop and start, the MCP session tools). */
export async function produceCommand(config: Config, id: string, argv: string[], sharedContext?: VerbContext): Promise<Outcome> {
  const CommandClass = await config.findCommand(id, {must: true}).load()
  const command: unknown = Reflect.construct(CommandClass, [argv, config])
  if (!(command instanceof OutcomeCommand)) throw new Error(`${id} is not a tapir command`)
  if (sharedContext) command.sharedContext = sharedContext
  return command.produce()
}
