import {resolve} from 'node:path'
import {Command} from '@oclif/core/command'
import * as Flags from '@oclif/core/flags'
import {CATALOGUE_DESCRIPTION, CATALOGUES, type Catalogue} from '../../lib/mcp/catalogues.js'
import {failureOutcome, outcomeText} from '../../lib/output/outcome.js'
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
import {checkTimeout} from '../../lib/verbs/input.js'
import {MAX_TIMEOUT_MS} from '../../lib/vm/deadline.js'
import {parseFailure, TapirCommand} from '../../oclif/tapir-command.js'

export default class McpServe extends Command {
  static override summary = 'Serve every tapir_* tool (or, with --catalogue=dusk, every dusk_* tool) to an MCP client over stdio.'
  static override description =
    'Speaks MCP on stdin/stdout (nothing else is written there; logs go to stderr). Tools act on the app of the session tapir start or tapir attach recorded; the server keeps one VM Service connection and reconnects when the app restarts or the session changes.'
  static override examples = [
    '<%= config.bin %> mcp:serve',
    '<%= config.bin %> mcp:serve --catalogue=dusk',
    '<%= config.bin %> mcp:install --client=cursor',
  ]
  static override flags = {
    state: TapirCommand.baseFlags.state,
    timeout: TapirCommand.baseFlags.timeout,
    catalogue: Flags.option({options: CATALOGUES, default: 'tapir' as const, description: CATALOGUE_DESCRIPTION})(),
    record: Flags.string({
      description:
        "Record this server's successful actions and waits into this file as a tapir:run file, for the server's lifetime (tapir record start records the whole session instead).",
    }),
    trace: Flags.string({
      description:
        "Trace this server's calls into a new file in this folder: each call, and the app after it (tapir show-trace <file>; tapir trace start traces the whole session instead).",
    }),
    'trace-screenshots': Flags.boolean({description: 'Put a screenshot after each action in the trace.', allowNo: true, default: false}),
  }

  override async run(): Promise<void> {
    let flags: {state?: string; timeout: number; catalogue: Catalogue; record?: string; trace?: string; 'trace-screenshots': boolean}
    let recording: RecordingStore | undefined
    let tracer: Tracer | undefined
    try {
      flags = (
        await this.parse(McpServe).catch((error) => {
          throw parseFailure(error, this.id)
        })
      ).flags
      checkTimeout('--timeout', flags.timeout)
      if (flags.record !== undefined) {
        const state = newRecordingState(resolve(process.cwd(), flags.record), this.config.version)
        startRecordingFile(state)
        recording = memoryStore(state)
      }
      if (flags.trace !== undefined) {
        const file = traceFileIn(resolve(process.cwd(), flags.trace), 'mcp')
        tracer = new Tracer({
          file,
          source: 'mcp',
          title: 'mcp:serve',
          version: this.config.version,
          screenshots: flags['trace-screenshots'],
        })
      }
    } catch (error) {
      // stdout is the protocol's: the error goes to stderr only, as the ✗ line every command prints.
      await printOutcome({...failureOutcome(error, false), stdout: ''})
      return
    }
    const [{serveMcp}, {runStepLines}, {runSessionCommand}, {traceCall}, {appendStep}] = await Promise.all([
      import('../../lib/mcp/server.js'),
      import('../../cli/step-lines.js'),
      import('../../oclif/session-runner.js'),
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
        catalogue: flags.catalogue,
        version: this.config.version,
        context,
        log,
        drainMs: Math.min(MAX_TIMEOUT_MS, flags.timeout + 1000),
        runCommand: (tool, argv, callContext) =>
          runSessionCommand(this.config, {state: flags.state, timeout: flags.timeout}, tool, argv, callContext),
        onCall: async (call, callContext) => {
          const problem = await appendStep(tracer ?? this.sessionTracer(context), callContext, traceCall(call))
          if (problem) log(problem)
        },
        traceFile: () => tracer?.file ?? this.sessionTraceFile(context),
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
  }

  /** The session's trace, when tapir trace start turned one on. */
  private sessionTracer(context: SessionContext): Tracer | undefined {
    try {
      return sessionTracer(context.location)
    } catch {
      return undefined
    }
  }

  private sessionTraceFile(context: SessionContext): string | undefined {
    try {
      return readTraceStateValue(readTraceState(context.location))?.file
    } catch {
      return undefined
    }
  }
}
