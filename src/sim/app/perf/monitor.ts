import type {ExtensionError} from '../../app-contract.js'
import {tapirError} from '../errors.js'
import type {Frame} from '../frame.js'
import type {AppState} from '../state.js'
import {FrameRecorder, type RecorderOptions} from './recorder.js'
import {closeSession, type PerfEnv} from './report.js'
import {OpenSession, type ClosedSession} from './session.js'
import type {FrameRecord, PerfMode} from './types.js'

/**
 * TapirPlugin's performance side: the recorder every drawn frame goes through, the open session
 * (at most one) and the most recent closed one. A hot restart makes a new monitor, so sessions
 * do not survive it.
 */
export class PerfMonitor {
  readonly recorder: FrameRecorder
  private open: OpenSession | null = null
  private closed: ClosedSession | null = null
  private sessions = 0

  constructor(options?: RecorderOptions) {
    this.recorder = new FrameRecorder(options)
  }

  /** Whether a session is open (between perf_begin and perf_end). */
  get sessionOpen(): boolean {
    return this.open !== null
  }

  /** The hook AppModel calls after every frame it draws; answers the frames the engine rasterised. */
  frameDrawn(frame: Frame, state: AppState, semanticsEnabled: boolean): readonly FrameRecord[] {
    const outcome = this.recorder.record(frame, state, semanticsEnabled)
    this.open?.absorb(outcome)
    return outcome.frames
  }

  /** Opens a session, restarting one that is open; either way the last closed session is dropped. */
  begin(mode: PerfMode, phases: boolean): {session: OpenSession; restarted: boolean} {
    const restarted = this.open !== null
    this.closed = null
    this.open = new OpenSession(`perf-${++this.sessions}`, mode, phases, this.recorder.liveness, this.recorder.nowUs)
    return {session: this.open, restarted}
  }

  end(full: boolean, env: PerfEnv): Record<string, unknown> {
    const session = this.open
    if (session === null) {
      throw tapirError(
        'ext.tapir.perf_end: no performance session is open; call perf_begin before the interaction, then perf_end',
        'not_found',
      )
    }
    this.open = null
    const closing = closeSession(session, {
      livenessFinal: this.recorder.liveness,
      endUs: this.recorder.nowUs,
      cacheSize: this.recorder.cacheSize,
      full,
      env,
    })
    this.closed = {
      token: session.token,
      mode: session.mode,
      phases: session.phases,
      refused: closing.refused,
      platform: env.platform,
      frames: [...session.frames],
      insights: closing.insights,
    }
    return closing.report
  }

  /** The last closed session a drill-down or export may read, or the error naming what to read instead. */
  closedFor(verb: string, token: string | undefined): ClosedSession {
    const closed = this.closed
    if (closed === null) {
      const why =
        this.open === null
          ? 'no performance session has been closed since the app started or since the last perf_begin'
          : `session ${this.open.token} is still open and no earlier session is kept`
      throw tapirError(`ext.tapir.${verb}: ${why}; run perf_begin, the interaction, then perf_end, and read its report`, 'not_found')
    }
    if (token !== undefined && token !== closed.token) throw staleToken(verb, token, closed.token)
    if (closed.refused) {
      throw tapirError(
        `ext.tapir.${verb}: session ${closed.token} was refused (the engine drew no frames), so it has no frames, insights or trace; ` +
          "read perf_end's reason, bring the app to the front and run a new session",
        'unexpected',
      )
    }
    return closed
  }
}

function staleToken(verb: string, token: string, latest: string): ExtensionError {
  return tapirError(
    `ext.tapir.${verb}: token ${token} is stale; only the most recent closed session, ${latest}, is kept: pass token=${latest} or omit it`,
    'stale',
    undefined,
    [latest],
  )
}
