import type {Config} from '@oclif/core/config'
import {TapirError, messageOf} from '../lib/errors.js'
import type {SessionTool} from '../lib/mcp/session-tools.js'
import {failureOutcome, type Outcome} from '../lib/output/outcome.js'
import type {VerbContext} from '../lib/verbs/types.js'
import {Deadline} from '../lib/vm/deadline.js'
import {produceCommand} from './produce-command.js'

/** The server's own session flags, which every command it runs takes too. */
export interface ServerFlags {
  state?: string
  timeout: number
}

/** Runs a session tool's CLI command in this process, as `tapir <command> --json` would run
 *  it, on the call's context (its progress notifications, its MCP words). tapir_start answers
 *  only once the app it started answers, over the connection the server's tools use next. */
export async function runSessionCommand(
  config: Config,
  server: ServerFlags,
  tool: SessionTool,
  argv: string[],
  context: VerbContext,
): Promise<Outcome> {
  const dashes = argv.indexOf('--')
  const own = dashes === -1 ? argv : argv.slice(0, dashes)
  const rest = dashes === -1 ? [] : argv.slice(dashes)
  const globals = ['--json', `--timeout=${server.timeout}`, ...(server.state === undefined ? [] : ['--state', server.state])]
  const outcome = await produceCommand(config, tool.command, [...own, ...globals, ...rest], context)
  if (outcome.exitCode !== 0 || !tool.waitsForApp) return outcome
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
