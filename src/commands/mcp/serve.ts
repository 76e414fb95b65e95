import {resolve} from 'node:path'
import {runStepLines} from '../../cli/step-lines.js'
import {defineCommand} from '../../lib/commands/types.js'
import {CATALOGUE_DESCRIPTION, CATALOGUES} from '../../lib/mcp/catalogues.js'
import {failureOutcome, outcomeText, type Outcome} from '../../lib/output/outcome.js'
import {printOutcome} from '../../lib/output/print.js'
import {printable} from '../../lib/output/printable.js'
import {startRecordingFile} from '../../lib/record/recording-file.js'
import {memoryStore, newRecordingState, type RecordingStore} from '../../lib/record/state.js'
import {SessionContext} from '../../lib/runtime/session-context.js'
import {sessionTracer} from '../../lib/runtime/session-trace.js'
import {readTraceState} from '../../lib/session/trace-state.js'
import {readTraceStateValue} from '../../lib/trace/session-state.js'
import {traceFileIn} from '../../lib/trace/trace-file.js'
import {Tracer} from '../../lib/trace/tracer.js'
import {MAX_TIMEOUT_MS} from '../../lib/vm/deadline.js'

const QUIET: Outcome = {stdout: '', stderr: [], exitCode: 0}

export const MCP_SERVE = defineCommand({
  id: 'mcp:serve',
  summary: 'Serve every tapir_* tool (or, with --catalogue=dusk, every dusk_* tool) to an MCP client over stdio.',
  description:
    'Speaks MCP on stdin/stdout (nothing else is written there; logs go to stderr). Tools act on the app of the session tapir start or tapir attach recorded; the server keeps one VM Service connection and reconnects when the app restarts or the session changes.',
  examples: [
    '<%= config.bin %> mcp:serve',
    '<%= config.bin %> mcp:serve --catalogue=dusk',
    '<%= config.bin %> mcp:install --client=cursor',
  ],
  params: [
    {name: 'catalogue', type: 'string', options: CATALOGUES, default: 'tapir', description: CATALOGUE_DESCRIPTION},
    {
      name: 'record',
      type: 'string',
      description:
        "Record this server's successful actions and waits into this file as a tapir:run file, for the server's lifetime (tapir record start records the whole session instead).",
    },
    {
      name: 'trace',
      type: 'string',
      description:
        "Trace this server's calls into a new file in this folder: each call, and the app after it (tapir show-trace <file>; tapir trace start traces the whole session instead).",
    },
    {name: 'trace-screenshots', type: 'boolean', default: false, description: 'Put a screenshot after each action in the trace.'},
  ],
  globals: 'session',
  session: 'none',
  async run(flags, {version, commands}): Promise<Outcome> {
    let recording: RecordingStore | undefined
    let tracer: Tracer | undefined
    try {
      if (flags.record !== undefined) {
        const state = newRecordingState(resolve(process.cwd(), flags.record), version)
        startRecordingFile(state)
        recording = memoryStore(state)
      }
      if (flags.trace !== undefined) {
        const file = traceFileIn(resolve(process.cwd(), flags.trace), 'mcp')
        tracer = new Tracer({file, source: 'mcp', title: 'mcp:serve', version, screenshots: flags['trace-screenshots'] === true})
      }
    } catch (error) {
      // stdout is the protocol's: the error goes to stderr only, as the ✗ line every command prints.
      await printOutcome({...failureOutcome(error, false), stdout: ''})
      return QUIET
    }
    const [{serveMcp}, {traceCall}, {appendStep}] = await Promise.all([
      import('../../lib/mcp/server.js'),
      import('../../lib/mcp/trace-call.js'),
      import('../../lib/trace/append-step.js'),
    ])
    const context = new SessionContext({
      stateFlag: flags.state,
      env: process.env,
      cwd: process.cwd(),
      timeoutMs: flags.timeout,
      followSession: true,
      ...(recording ? {recording} : {}),
    })
    const log = (line: string) => process.stderr.write(`[tapir mcp] ${printable(line, true)}\n`)
    try {
      await serveMcp({
        name: 'tapir',
        catalogue: flags.catalogue === 'dusk' ? 'dusk' : 'tapir',
        version,
        context,
        log,
        drainMs: Math.min(MAX_TIMEOUT_MS, flags.timeout + 1000),
        commands,
        server: {timeout: flags.timeout, ...(flags.state === undefined ? {} : {state: flags.state})},
        onCall: async (call, callContext) => {
          const problem = await appendStep(tracer ?? sessionTraceOf(context), callContext, traceCall(call))
          if (problem) log(problem)
        },
        traceFile: () => tracer?.file ?? sessionTraceFile(context),
        runSteps: async (lines, keepGoing, callContext) => {
          const outcome = await runStepLines(lines, {keepGoing, json: false, context: callContext})
          return {text: outcomeText(outcome), error: outcome.exitCode === 0 ? undefined : outcome.error}
        },
      })
    } finally {
      // a trace whose file is gone has nothing to close
      await tracer?.close().catch(() => undefined)
      context.close()
    }
    return QUIET
  },
})

/** The session's trace, when tapir trace start turned one on. */
function sessionTraceOf(context: SessionContext): Tracer | undefined {
  try {
    return sessionTracer(context.location)
  } catch {
    return undefined
  }
}

function sessionTraceFile(context: SessionContext): string | undefined {
  try {
    return readTraceStateValue(readTraceState(context.location))?.file
  } catch {
    return undefined
  }
}
