import {resolve} from 'node:path'
import {defineCommand} from '../lib/commands/types.js'
import {UsageError} from '../lib/errors.js'
import type {Outcome} from '../lib/output/outcome.js'
import {linesOutcome} from '../lib/output/outcome.js'
import {startRecordingFile} from '../lib/record/recording-file.js'
import {newRecordingState} from '../lib/record/state.js'
import {sessionRecordingStore} from '../lib/runtime/session-recording.js'
import {clearRecordingState} from '../lib/session/recording.js'

export const RECORD = defineCommand({
  id: 'record',
  summary: "Record what drives the session's app (CLI verbs, tapir:run steps, MCP calls) as a tapir:run file.",
  description:
    'record start <file> turns the recording on for the session: every successful action and wait, from any tapir process on this session, is appended to <file> as a step line as soon as it succeeds, its eN/qN refs written as find steps bound with --as. record stop turns it off. The file is created afresh; a symbolic link or a file that is not a tapir recording is refused. Replay it with tapir tapir:run --file <file>.',
  examples: ['<%= config.bin %> record start flow.tapir', '<%= config.bin %> record stop'],
  params: [
    {name: 'action', type: 'string', description: 'start or stop.', options: ['start', 'stop'], required: true},
    {name: 'file', type: 'string', description: 'The file to record into (start only).'},
  ],
  positional: ['action', 'file'],
  globals: 'all',
  session: 'locks',
  async run(flags, {location, version}): Promise<Outcome> {
    const {action, file} = flags
    if (action === 'stop') {
      if (file !== undefined) throw new UsageError('record stop takes no file.')
      const store = sessionRecordingStore(location)
      const state = store.load()
      const stopped = clearRecordingState(location)
      const lines = stopped ? [`✓ Stopped recording${state ? ` into ${state.file}` : ''}`] : ['✓ No recording was on']
      if (stopped && state && state.secrets.length > 0) lines.push(`  Replay needs: ${state.secrets.join(', ')}`)
      return linesOutcome(lines, {recording: null, ...(state ? {file: state.file, replayNeeds: state.secrets} : {})}, flags.json === true)
    }
    if (file === undefined || file === '') throw new UsageError('Missing the file: tapir record start <file>.')
    const state = newRecordingState(resolve(process.cwd(), file), version)
    startRecordingFile(state)
    sessionRecordingStore(location).save(state)
    return linesOutcome(
      [`✓ Recording into ${state.file}`, '  Stop with: tapir record stop'],
      {recording: {file: state.file, startedAt: state.startedAt}},
      flags.json === true,
    )
  },
})
