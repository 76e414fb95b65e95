import {TapirError} from '../errors.js'
import {anything, boolean, integer, isJsonObject, list, number, object, optional, readAs, record, string, type Infer} from '../shape.js'
import type {Input, Result, SharedState, VerbCall} from '../verbs/types.js'
import type {AppConnection} from '../vm/app-connection.js'
import type {Deadline} from '../vm/deadline.js'
import {needHistory, ofLiveIsolates} from './streams.js'
import {closeTimingSession, type FrameTime} from './timing-report.js'

// perf_begin, perf_end and perf_insight on an app with no package, in timing mode: the frames are
// the `Flutter.Frame` events a debug or profile build posts on the Extension stream, one per
// FrameTiming (flutter/flutter packages/flutter/lib/src/scheduler/binding.dart
// `_profileFramePostEvent`, registered by `SchedulerBinding.initInstances` when `!kReleaseMode`),
// read back from the history DDS keeps. The session's window is on the VM's timeline clock
// (`getVMTimelineMicros`), the clock the engine stamps each timing with, and is kept beside the
// session file, the app keeping nothing of tapir's.

/** The engine reports timings in batches, at most `kBatchTimeInMilliseconds` (100 ms outside
 *  release) after a frame is rasterised (engine shell/common/shell.cc `Shell::OnFrameRasterized`);
 *  perf_end waits that, a frame still in flight and the UI thread's post past the window's end. */
const REPORT_WAIT_US = 250_000
/** DDS's history per stream (dart-lang/sdk pkg/dds logging_repository.dart `LoggingRepository`). */
const DDS_HISTORY = 10_000

const LIVENESS =
  "no liveness counter apart from the frame reports: framesDrawn is how far the engine's frame number advanced among the Flutter.Frame events DDS kept, so a frame not yet reported when perf_end read them counts neither as drawn nor as summarized"
const HISTORY =
  "DDS keeps the last 10,000 Extension events and the session's first frames were already dropped from it: the report starts later than the session"

const insightShape = object({
  id: string,
  severity: string,
  title: string,
  summary: string,
  evidence: record(anything),
  estimatedSavingsMs: optional(number),
  nextStep: string,
  detail: record(anything),
})

const stateShape = object({
  next: integer,
  open: optional(object({token: string, startUs: number, livenessBaseline: integer})),
  closed: optional(object({token: string, refused: boolean, insights: list(insightShape)})),
})

type PerfState = Infer<typeof stateShape>

/** Where the state lives: beside the session file, or in this process when there is none. */
let inMemory: PerfState = {next: 1}

function stateOf(raw: unknown): PerfState {
  const read = readAs(stateShape, raw)
  return 'value' in read ? read.value : {next: 1}
}

function readState(shared: SharedState | undefined): PerfState {
  return shared === undefined ? inMemory : stateOf(shared.read())
}

/** Changes the state as it is now, under the sidecar's lock, so two begins never share a token. */
async function changeState<T>(shared: SharedState | undefined, change: (state: PerfState) => {state: PerfState; answer: T}): Promise<T> {
  if (shared !== undefined) return shared.update((raw) => change(stateOf(raw)))
  const {state, answer} = change(inMemory)
  inMemory = state
  return answer
}

/** The timeline clock now, or the refusal of an app whose debug service has none (DWDS). */
async function clockOf(app: AppConnection, deadline: Deadline, verb: string): Promise<number> {
  const now = await app.timelineMicros(deadline)
  if (now !== undefined) return now
  throw new TapirError(
    `${verb} on an app with no package places frames on the VM's timeline clock (getVMTimelineMicros), which this debug service does not offer (DWDS, a web app): run tapir install.`,
    'usage',
  )
}

/** The Flutter.Frame events of the isolates running now, as frame times. */
async function reportedFrames(app: AppConnection, deadline: Deadline): Promise<{frames: FrameTime[]; events: number}> {
  const events = await ofLiveIsolates(app, 'Extension', deadline)
  const frames = events.flatMap((event) => {
    const data = event.extensionData
    if (event.extensionKind !== 'Flutter.Frame' || !isJsonObject(data)) return []
    const {number: frameNumber, startTime, build, raster} = data
    if (![frameNumber, startTime, build, raster].every((value) => typeof value === 'number' && Number.isFinite(value))) return []
    return [{number: Number(frameNumber), startUs: Number(startTime), buildMs: Number(build) / 1000, rasterMs: Number(raster) / 1000}]
  })
  return {frames, events: events.length}
}

const newest = (frames: readonly FrameTime[], floor = 0): number => frames.reduce((max, frame) => Math.max(max, frame.number), floor)

export async function perfBegin(app: AppConnection, call: VerbCall, input: Input): Promise<Result> {
  if (input.mode === 'attribution' || input.phases === true)
    throw new TapirError(
      (words) =>
        `${words.call('perf_begin', input.phases === true ? {phases: true} : {mode: 'attribution'})} profiles builds inside the app, which needs the tapir package: pass ${words.arg('mode', 'timing')} for frame times from Flutter's own Flutter.Frame events, or run tapir install.`,
      'usage',
    )
  const {deadline} = call
  await needHistory(app, deadline, 'perf_begin')
  const startUs = await clockOf(app, deadline, 'perf_begin')
  const livenessBaseline = newest((await reportedFrames(app, deadline)).frames)
  // A begin drops the last closed session, as the package's does; an open one is restarted.
  const {sessionToken, restarted} = await changeState(call.perfState?.(), (state) => ({
    state: {next: state.next + 1, open: {token: `perf-${state.next}`, startUs, livenessBaseline}},
    answer: {sessionToken: `perf-${state.next}`, restarted: state.open !== undefined},
  }))
  return {sessionToken, mode: 'timing', phases: false, livenessBaseline, restartedPreviousSession: restarted}
}

export async function perfEnd(app: AppConnection, call: VerbCall): Promise<Result> {
  const {deadline} = call
  const {open} = readState(call.perfState?.())
  if (open === undefined)
    throw new TapirError(
      (words) =>
        `perf_end: no performance session is open; ${words.run.toLowerCase()} ${words.call('perf_begin')} before the interaction, then ${words.call('perf_end')}.`,
      'app',
    )
  await needHistory(app, deadline, 'perf_end')
  const endUs = await clockOf(app, deadline, 'perf_end')
  // Listen now, so the batches that come while perf_end waits are heard too.
  await reportedFrames(app, deadline)
  for (let now = endUs; now < endUs + REPORT_WAIT_US; now = await clockOf(app, deadline, 'perf_end'))
    await new Promise((resolve) => setTimeout(resolve, Math.ceil((endUs + REPORT_WAIT_US - now) / 1000)))
  const {frames, events} = await reportedFrames(app, deadline)
  const inWindow = frames.filter((frame) => frame.startUs >= open.startUs && frame.startUs <= endUs)
  // No frame of the running isolate was in the history at perf_begin (pushed out of it, or a
  // begin just after a hot restart): the engine numbers frames on across restarts, so the frame
  // before the first one that started in the session stands in for the baseline.
  const started = frames.filter((frame) => frame.startUs >= open.startUs)
  const livenessBaseline =
    open.livenessBaseline > 0 || started.length === 0 ? open.livenessBaseline : Math.min(...started.map((frame) => frame.number)) - 1
  const past = frames.filter((frame) => frame.number > livenessBaseline)
  const earliest = frames.reduce((min, frame) => Math.min(min, frame.startUs), Number.POSITIVE_INFINITY)
  const operatingSystem = await app.operatingSystem(deadline)
  const debug = (await app.extensionRPCs(deadline)).includes('ext.flutter.inspector.getRootWidget')
  const closing = closeTimingSession(inWindow, {
    token: open.token,
    startUs: open.startUs,
    endUs,
    livenessBaseline,
    livenessFinal: newest(frames, livenessBaseline),
    framesOutsideSession: past.length - inWindow.length,
    env: {
      platform: operatingSystem ?? 'unknown',
      isWeb: false,
      buildMode: debug ? 'debug' : 'profile',
      renderer: 'unknown',
      semanticsEnabled: null,
      phases: false,
    },
    missing: {liveness: LIVENESS, ...(events >= DDS_HISTORY && earliest > open.startUs ? {history: HISTORY} : {})},
  })
  // A session another tapir process opened while this one waited stays open.
  await changeState(call.perfState?.(), (state) => ({
    state: {
      next: state.next,
      ...(state.open !== undefined && state.open.token !== open.token ? {open: state.open} : {}),
      closed: {token: open.token, refused: closing.refused, insights: closing.refused ? [] : closing.insights},
    },
    answer: undefined,
  }))
  return closing.report
}

export function perfInsight(call: VerbCall, input: Input): Result {
  const {closed} = readState(call.perfState?.())
  if (closed === undefined)
    throw new TapirError(
      'perf_insight: no performance session has been closed since the last perf_begin; run perf_begin, the interaction, then perf_end, and read its report.',
      'app',
    )
  const token = typeof input.token === 'string' ? input.token : undefined
  if (token !== undefined && token !== closed.token)
    throw new TapirError(
      (words) =>
        `perf_insight: token ${token} is stale; only the most recent closed session, ${closed.token}, is kept: pass ${words.arg('token', closed.token)} or omit it.`,
      'app',
    )
  if (closed.refused)
    throw new TapirError(
      `perf_insight: session ${closed.token} was refused (the engine drew no frames), so it has no insights; read perf_end's reason, bring the app to the front and run a new session.`,
      'app',
    )
  const id = String(input.id ?? '')
  const insight = closed.insights.find((candidate) => candidate.id === id)
  if (insight === undefined)
    throw new TapirError(
      `perf_insight: session ${closed.token} issued no insight ${id}; take an id from perf_end's insights[] (${closed.insights.map((candidate) => candidate.id).join(', ') || 'it raised none'}).`,
      'app',
    )
  const {id: _id, ...rest} = insight
  return {sessionToken: closed.token, id, ...rest}
}
