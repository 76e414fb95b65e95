import {resolve} from 'node:path'
import {defineCommand} from '../lib/commands/types.js'
import {UsageError} from '../lib/errors.js'
import type {Outcome} from '../lib/output/outcome.js'
import {linesOutcome} from '../lib/output/outcome.js'
import {readSession} from '../lib/session/store.js'
import {clearTraceState, readTraceState, writeTraceState} from '../lib/session/trace-state.js'
import {readTraceStateValue} from '../lib/trace/session-state.js'
import {appendTraceEntry, startTraceFile} from '../lib/trace/trace-file.js'
import {openingHeader} from '../lib/trace/tracer.js'

export const TRACE = defineCommand({
  id: 'trace',
  summary: "Trace what drives the session's app (CLI verbs, tapir:run steps, MCP calls) into one file.",
  description:
    "trace start <file> turns the trace on for the session: every tapir process on it, CLI or MCP, appends each verb it runs, with the app's snapshot, route, console and exceptions after it (and a screenshot after each action with --screenshots), as it goes. trace stop turns it off. The file is created afresh; a symbolic link or a file that is not a tapir trace is refused. Show it with tapir show-trace <file>.",
  examples: ['<%= config.bin %> trace start session.trace --screenshots', '<%= config.bin %> trace stop'],
  params: [
    {name: 'action', type: 'string', description: 'start or stop.', options: ['start', 'stop'], required: true},
    {name: 'file', type: 'string', description: 'The file to trace into (start only).'},
    {name: 'screenshots', type: 'boolean', default: false, description: 'Put a screenshot after each action in the trace.'},
  ],
  positional: ['action', 'file'],
  globals: 'all',
  session: 'locks',
  async run(flags, {location, version}): Promise<Outcome> {
    const {action, file} = flags
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
      return linesOutcome(lines, {trace: null, ...(state ? {file: state.file} : {})}, flags.json === true)
    }
    if (file === undefined || file === '') throw new UsageError('Missing the file: tapir trace start <file>.')
    const path = resolve(process.cwd(), file)
    const device = readSession(location)?.device
    startTraceFile(
      path,
      openingHeader({
        version,
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
      flags.json === true,
    )
  },
})
