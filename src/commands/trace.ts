import {resolve} from 'node:path'
import * as Args from '@oclif/core/args'
import * as Flags from '@oclif/core/flags'
import {UsageError} from '../lib/errors.js'
import type {Outcome} from '../lib/output/outcome.js'
import {linesOutcome} from '../lib/output/outcome.js'
import type {SessionLocation} from '../lib/session/location.js'
import {readSession} from '../lib/session/store.js'
import {clearTraceState, readTraceState, writeTraceState} from '../lib/session/trace-state.js'
import {readTraceStateValue} from '../lib/trace/session-state.js'
import {appendTraceEntry, startTraceFile} from '../lib/trace/trace-file.js'
import {openingHeader} from '../lib/trace/tracer.js'
import {SessionCommand} from '../oclif/session-command.js'
import type {FlagsOf} from '../oclif/tapir-command.js'

export default class TraceCommand extends SessionCommand<typeof TraceCommand> {
  static override summary = "Trace what drives the session's app (CLI verbs, tapir:run steps, MCP calls) into one file."
  static override description =
    "trace start <file> turns the trace on for the session: every tapir process on it, CLI or MCP, appends each verb it runs, with the app's snapshot, route, console and exceptions after it (and a screenshot after each action with --screenshots), as it goes. trace stop turns it off. The file is created afresh; a symbolic link or a file that is not a tapir trace is refused. Show it with tapir show-trace <file>."
  static override examples = ['<%= config.bin %> trace start session.trace --screenshots', '<%= config.bin %> trace stop']
  static override args = {
    action: Args.string({description: 'start or stop.', options: ['start', 'stop'], required: true}),
    file: Args.string({description: 'The file to trace into (start only).'}),
  }
  static override flags = {
    screenshots: Flags.boolean({description: 'Put a screenshot after each action in the trace.'}),
  }

  protected override changesSession = true

  protected parseInput() {
    return this.parse(TraceCommand)
  }

  protected async sessionOutcome(flags: FlagsOf<typeof TraceCommand>, location: SessionLocation): Promise<Outcome> {
    const {action, file} = (await this.parse(TraceCommand)).args
    if (action === 'stop') {
      if (file !== undefined) throw new UsageError('trace stop takes no file.')
      const state = readTraceStateValue(readTraceState(location))
      const stopped = clearTraceState(location)
      if (state) {
        try {
          appendTraceEntry(state.file, {kind: 'end', endedAt: new Date().toISOString()})
        } catch {
          // the trace's file is gone: the trace is off all the same
        }
      }
      const lines = stopped ? [`✓ Stopped tracing${state ? ` into ${state.file}` : ''}`] : ['✓ No trace was on']
      return linesOutcome(lines, {trace: null, ...(state ? {file: state.file} : {})}, flags.json)
    }
    if (file === undefined || file === '') throw new UsageError('Missing the file: tapir trace start <file>.')
    const path = resolve(process.cwd(), file)
    const device = readSession(location)?.device
    startTraceFile(
      path,
      openingHeader({
        version: this.config.version,
        source: 'session',
        title: 'session trace',
        ...(typeof device === 'string' ? {device} : {}),
      }),
    )
    const startedAt = new Date().toISOString()
    writeTraceState(location, {file: path, screenshots: flags.screenshots, startedAt})
    return linesOutcome(
      [`✓ Tracing into ${path}`, '  Stop with: tapir trace stop', `  Show with: tapir show-trace ${file}`],
      {trace: {file: path, startedAt, screenshots: flags.screenshots}},
      flags.json,
    )
  }
}
