import {runCommand, type CommandWorld} from '../lib/commands/run-command.js'
import type {AnyCommand} from '../lib/commands/types.js'
import type {Outcome} from '../lib/output/outcome.js'
import type {VerbContext} from '../lib/verbs/types.js'
import {asksJson, readCommandLine} from './command-line.js'
import {produceOutcome} from './produce-outcome.js'
import {tapirVersion} from './version.js'

/** A command run on its command line: read by the one reader, its input typed by its params, run
 *  by the one runner (src/lib/commands/run-command.ts). Never prints; throws only HelpAsked. */
export function commandLineOutcome(command: AnyCommand, argv: readonly string[], commands: readonly AnyCommand[]): Promise<Outcome> {
  return produceOutcome(
    asksJson(argv, command),
    async () => {
      const {values, rest} = readCommandLine(command, argv)
      return {flags: values, input: command.rest === undefined ? values : {...values, [command.rest.name]: rest}}
    },
    ({input}, verbs: VerbContext) => {
      const world: CommandWorld = {verbs, version: tapirVersion(), env: process.env, commands}
      return runCommand(command, input, world)
    },
  )
}
