import {defineCommand} from '../lib/commands/types.js'
import {askSupervisor} from '../lib/flutter/supervisor-client.js'
import {SUPERVISOR_STOP_MS} from '../lib/flutter/supervisor-protocol.js'
import type {Outcome} from '../lib/output/outcome.js'
import {linesOutcome} from '../lib/output/outcome.js'
import {removeChromeProfile} from '../lib/runtime/chrome-for-app.js'
import {removeSupervisorSocket} from '../lib/runtime/supervisor-socket.js'
import {terminateOwned} from '../lib/session/owned-process.js'
import {clearRecordingState} from '../lib/session/recording.js'
import {assessProcesses, refuseForeign} from '../lib/session/session-processes.js'
import type {Session} from '../lib/session/session.js'
import {deleteSession, NotASessionError, readOwnSession, removeUnreadableSession} from '../lib/session/store.js'

export const STOP = defineCommand({
  id: 'stop',
  summary: 'End what tapir started for this project (the app, its browser) and remove the session.',
  description:
    'Only a process tapir started and recorded is signalled, and only while its command line and start time still match the record. A session naming any other process is refused (exit 1): nothing is signalled and the session is kept. Only a tapir session file is removed.',
  examples: ['<%= config.bin %> stop'],
  params: [],
  globals: 'all',
  session: 'locks',
  mcp: {
    tool: 'tapir_stop',
    title: 'Stop the app',
    summary: 'End what tapir started (the app, its browser) and remove the session.',
    kind: 'destructive',
    params: [],
    input: () => ({}),
  },
  async run(flags, {location}): Promise<Outcome> {
    const json = flags.json === true
    let session: Session | undefined
    try {
      session = readOwnSession(location)
    } catch (error) {
      // Only a file in tapir's own per-project folder is removed; a named one is the user's.
      if (!(error instanceof NotASessionError) || location.named) throw error
      removeUnreadableSession(location)
      return linesOutcome([`✓ Removed the unreadable session ${location.path}`], {removed: location.path, stopped: []}, json)
    }
    if (!session) return linesOutcome([`✓ Nothing to stop (no session at ${location.path}).`], {removed: null, stopped: []}, json)
    let assessed = assessProcesses(session)
    refuseForeign(assessed, location.path)
    const lines: string[] = []
    const stopped: number[] = []
    // flutter ends the app itself when asked (app.stop): an app on a device has no pid of ours.
    const supervisor = assessed.find((entry) => entry.role === 'supervisor')
    if (supervisor?.state === 'ours' && typeof session.supervisorSocket === 'string') {
      const reply = await askSupervisor(session.supervisorSocket, {op: 'stop'}, SUPERVISOR_STOP_MS).catch((error: Error) => ({
        ok: false,
        message: error.message,
      }))
      lines.push(
        reply.ok ? '✓ Asked flutter run to stop the app (app.stop)' : `⚠ flutter run did not stop the app cleanly: ${reply.message}`,
      )
      // Having answered, it ends by itself: waited for (or, if it does not, ended) before the rest.
      await terminateOwned(supervisor.process, SUPERVISOR_STOP_MS)
      stopped.push(supervisor.process.pid)
      lines.push(`✓ Stopped supervisor pid=${supervisor.process.pid}`)
      assessed = assessProcesses(session).filter((entry) => entry.role !== 'supervisor')
    }
    for (const entry of assessed) {
      if (entry.state === 'ours') {
        // A supervisor that is signalled stops flutter first, which takes its own grace periods.
        await terminateOwned(entry.process, entry.role === 'supervisor' ? SUPERVISOR_STOP_MS : undefined)
        stopped.push(entry.process.pid)
        lines.push(`✓ Stopped ${entry.role} pid=${entry.process.pid}`)
      } else if (entry.state === 'gone') {
        lines.push(`✓ ${entry.role} pid=${entry.pid} is no longer running`)
      }
    }
    // The browser's throwaway profile goes with it (Chrome and its helpers have exited by now),
    // and so does the supervisor's socket folder.
    removeChromeProfile(session)
    removeSupervisorSocket(session)
    deleteSession(location, session)
    lines.push(`✓ Removed session ${location.path}`)
    // The recording belongs to the session: it ends with it (the file stays).
    if (clearRecordingState(location)) lines.push('✓ Stopped recording')
    return linesOutcome(lines, {removed: location.path, stopped}, json)
  },
})
