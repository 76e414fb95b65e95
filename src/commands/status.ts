import {defineCommand} from '../lib/commands/types.js'
import {EXIT} from '../lib/output/exit-codes.js'
import type {Outcome} from '../lib/output/outcome.js'
import {redactToken} from '../lib/output/redact-token.js'
import {probeApp} from '../lib/runtime/probe.js'
import {sessionRecordingStore} from '../lib/runtime/session-recording.js'
import {isWithin} from '../lib/session/project-root.js'
import {noSessionError} from '../lib/session/require-session.js'
import {readSession} from '../lib/session/store.js'
import {toWebSocketUri} from '../lib/vm/uri.js'

export const STATUS = defineCommand({
  id: 'status',
  summary: "Print this project's session as JSON (auth token hidden) and whether the app answers.",
  examples: ['<%= config.bin %> status'],
  params: [],
  globals: 'all',
  session: 'reads',
  mcp: {
    tool: 'tapir_status',
    title: 'Session status',
    summary: 'Say what the session records and whether the app answers.',
    kind: 'read',
    params: [],
    input: () => ({}),
  },
  async run(flags, {location, verbs: context}): Promise<Outcome> {
    const session = readSession(location)
    if (!session) throw noSessionError(location)
    const probe = session.vmServiceUri
      ? await probeApp(toWebSocketUri(session.vmServiceUri), Math.min(flags.timeout, 5000), context.origin === 'mcp' ? 'mcp' : 'cli')
      : {answering: false, error: 'no VM Service URI yet'}
    const recording = sessionRecordingStore(location).load()
    const status = {
      ...session,
      vmServiceUri: session.vmServiceUri ? redactToken(session.vmServiceUri) : null,
      sessionFile: location.path,
      ownedByThisProject: !session.projectRoot || isWithin(process.cwd(), session.projectRoot),
      recording: recording ? {file: recording.file, startedAt: recording.startedAt} : null,
      ...probe,
    }
    return {stdout: JSON.stringify(status, null, 2), stderr: [], exitCode: EXIT.ok}
  },
})
