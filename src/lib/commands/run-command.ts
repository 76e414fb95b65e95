import {ParamError} from '../errors.js'
import {failureOutcome, type Outcome} from '../output/outcome.js'
import {locateSession, type SessionLocation} from '../session/location.js'
import {withSessionLock} from '../session/lock.js'
import type {VerbContext} from '../verbs/types.js'
import type {AnyCommand, CommandCallOf, CommandContext, CommandDef, CommandInputOf, CommandParam} from './types.js'

/** Where a command runs: the verbs' context and what the process knows. */
export interface CommandWorld {
  verbs: VerbContext
  version: string
  env: NodeJS.ProcessEnv
  commands: readonly AnyCommand[]
}

/**
 * Runs a command on its typed input, as every front end does: the CLI once the one reader read
 * its line, an MCP session tool on a call's arguments, restart on stop's and start's input. The
 * session is located from `--state` (or the environment), and locked while a command that
 * changes it runs. Never throws: a failure is its Outcome, in the words of the surface.
 */
export async function runCommand<P extends readonly CommandParam[], R extends string>(
  command: CommandDef<P, R>,
  call: CommandCallOf<P, R>,
  world: CommandWorld,
): Promise<Outcome> {
  // Each value left out takes its param's default, as the reader gives it on the CLI.
  const defaults = Object.fromEntries(command.params.flatMap((param) => (param.default === undefined ? [] : [[param.name, param.default]])))
  const given = Object.fromEntries(Object.entries(call).filter(([, value]) => value !== undefined))
  const input = {...defaults, ...given} as CommandInputOf<P, R>
  try {
    // A path, a name or a pattern given as "" (`--output-dir=` with a variable that was not set)
    // would quietly mean the current folder or nothing: refused, as a verb refuses an empty value.
    const empty = command.params.find((param) => param.type === 'string' && !param.allowEmpty && [given[param.name]].flat().includes(''))
    if (empty !== undefined)
      throw new ParamError(
        (name) =>
          `${name(empty.name)} needs a value${empty.default === undefined ? '' : ` (${String(empty.default)} when left out)`}; give one or leave it out.`,
      )
    let located: SessionLocation | undefined
    // Found when first asked for: a command about files only runs with no home folder too.
    const location = () => (located ??= locateSession({stateFlag: input.state, env: world.env, cwd: world.verbs.cwd}))
    const context: CommandContext = {
      verbs: world.verbs,
      get location() {
        return location()
      },
      version: world.version,
      env: world.env,
      commands: world.commands,
    }
    if (command.session !== 'locks') return await command.run(input, context)
    return await withSessionLock(location(), command.id, () => command.run(input, context))
  } catch (error) {
    return failureOutcome(error, input.json === true, world.verbs.origin === 'mcp' ? 'mcp' : 'cli')
  }
}

/** The command of `id` in `commands`, by its id or an alias. */
export function commandNamed(commands: readonly AnyCommand[], id: string): AnyCommand | undefined {
  return commands.find((command) => command.id === id || command.aliases?.includes(id))
}
