import type {Outcome} from '../lib/output/outcome.js'
import {failureOutcome} from '../lib/output/outcome.js'
import {printProgress} from '../lib/output/print.js'
import {SessionContext} from '../lib/runtime/session-context.js'
import {checkTimeout} from '../lib/verbs/input.js'
import type {VerbContext} from '../lib/verbs/types.js'
import {HelpAsked} from './command-line.js'

/** The global flags every tapir command takes, as read. */
export interface GlobalValues {
  json?: boolean
  state?: string
  timeout: number
}

/** What every command run does around its own work, whichever reader read its command line:
 *  the flags read, the session's context opened (unless tapir:run shares its own), the work run,
 *  any failure turned into its Outcome, then `after` on the context it opened (the session's
 *  trace). Never throws and never prints. */
export async function produceOutcome<Read extends {flags: GlobalValues}>(
  /** Whether the line asked for JSON, so a line refused before it was read words its error so. */
  jsonAsked: boolean,
  read: () => Promise<Read>,
  work: (read: Read, context: VerbContext) => Promise<Outcome>,
  sharedContext?: VerbContext,
  after?: (context: SessionContext, outcome: Outcome) => Promise<Outcome>,
): Promise<Outcome> {
  let context: SessionContext | undefined
  let outcome: Outcome
  try {
    const values = await read()
    checkTimeout('--timeout', values.flags.timeout)
    const verbContext =
      sharedContext ??
      (context = new SessionContext({
        stateFlag: values.flags.state,
        env: process.env,
        cwd: process.cwd(),
        timeoutMs: values.flags.timeout,
        progress: printProgress,
      }))
    outcome = await work(values, verbContext)
  } catch (error) {
    if (error instanceof HelpAsked) throw error
    // A command an MCP session tool runs answers in MCP's words.
    outcome = failureOutcome(error, jsonAsked, sharedContext?.origin === 'mcp' ? 'mcp' : 'cli')
  }
  try {
    return context && after ? await after(context, outcome) : outcome
  } finally {
    context?.close()
  }
}
