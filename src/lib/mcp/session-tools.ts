import {runCommand, type CommandWorld} from '../commands/run-command.js'
import type {AnyCommand, CommandTool} from '../commands/types.js'
import {TapirError, messageOf} from '../errors.js'
import {failureOutcome, type Outcome} from '../output/outcome.js'
import {inputFromArguments} from '../verbs/input.js'
import type {ToolShape, VerbContext} from '../verbs/types.js'
import {Deadline} from '../vm/deadline.js'

/** A tool about the session itself, the MCP projection of a command (start, status, stop, ...),
 *  as the catalogue's tools are of the verbs: the call's checked arguments become the command's
 *  typed input, and the command runs as on the CLI. tapir's addition to the reference, so an
 *  agent with only MCP can start, check and stop the app. */
export interface SessionTool extends ToolShape {
  tool: string
  command: AnyCommand
  projection: CommandTool<unknown>
}

/** The session tools of these commands: one per command with MCP facts. */
export function sessionTools(commands: readonly AnyCommand[]): SessionTool[] {
  return commands.flatMap((command) => {
    const projection = command.mcp
    if (!projection) return []
    const {tool, title, summary, kind, params} = projection
    return [{tool, title, summary, kind, params, command, projection}]
  })
}

/** The server's own session flags, which every command it runs takes too. */
export interface ServerFlags {
  state?: string
  timeout: number
}

/** Runs a session tool's command on a call's arguments, as `tapir <command> --json` would run
 *  it, on the call's context (its progress notifications, its MCP words). tapir_start answers
 *  only once the app it started answers, over the connection the server's tools use next. */
export async function runSessionTool(
  tool: SessionTool,
  args: Record<string, unknown> | undefined,
  server: ServerFlags,
  world: Omit<CommandWorld, 'verbs'>,
  context: VerbContext,
): Promise<Outcome> {
  const input = {
    ...tool.projection.input(inputFromArguments(tool, args)),
    json: true,
    timeout: server.timeout,
    ...(server.state === undefined ? {} : {state: server.state}),
  }
  const outcome = await runCommand(tool.command, input, {...world, verbs: context})
  if (outcome.exitCode !== 0 || !tool.projection.waitsForApp) return outcome
  try {
    const deadline = new Deadline(server.timeout)
    await (await context.app(deadline)).appPackage(deadline)
    return outcome
  } catch (error) {
    return failureOutcome(
      new TapirError(
        `The app started, but does not answer yet (${messageOf(error)}). Call tapir_status to see when it does, or tapir_stop to end it.`,
        'connection',
      ),
      true,
      'mcp',
    )
  }
}
