import {messageOf} from '../errors.js'
import {isJsonObject} from '../shape.js'
import {anyAnswer} from '../vm/tapir-answers.js'
import type {PerfApp} from './perf-app.js'

/**
 * Per-frame build and raster times of one repeat, as the run file keeps them:
 * `repeats[].frameTimes = {columns: ["frameNumber", "startMs", "buildMs", "rasterMs"], rows: [[…], …]}`,
 * one row per painted frame in the order drawn, `startMs` counted from the first frame's start.
 * perf_end reports only percentiles, so they come from the session's trace (perf_trace), read
 * right after perf_end and before the next perf_begin clears it. When the trace cannot be read
 * the repeat says why in `frameTimesMissing` instead.
 */
export const FRAME_COLUMNS = ['frameNumber', 'startMs', 'buildMs', 'rasterMs'] as const

export type FrameRow = [frameNumber: number, startMs: number, buildMs: number, rasterMs: number]

export interface FrameTimes {
  columns: typeof FRAME_COLUMNS
  rows: FrameRow[]
  /** Frames past MAX_FRAMES, left out. */
  omitted?: number
}

/** Frames kept per repeat: minutes of frames at 60 Hz, a bounded run file. */
export const MAX_FRAMES = 10_000

const round2 = (value: number): number => Math.round(value * 100) / 100
const isTime = (value: unknown): value is number => typeof value === 'number' && Number.isFinite(value) && value >= 0
const isFrameNumber = (value: unknown): value is number => typeof value === 'number' && Number.isInteger(value)
const isFrameRow = (row: unknown): row is FrameRow => Array.isArray(row) && row.length === 4 && row.every(isTime)

/** The frames of a Chrome Trace export: each complete event whose args carry a frameNumber and
 *  the frame's buildMs and rasterMs (tapir's "Frame N" spans). Undefined when there are none. */
export function frameTimesFromTrace(trace: unknown): FrameTimes | undefined {
  const events = isJsonObject(trace) && Array.isArray(trace.traceEvents) ? trace.traceEvents : []
  const frames: Array<{frameNumber: number; ts: number; buildMs: number; rasterMs: number}> = []
  for (const event of events) {
    if (!isJsonObject(event) || event.ph !== 'X' || !isJsonObject(event.args)) continue
    const {frameNumber, buildMs, rasterMs} = event.args
    if (!isFrameNumber(frameNumber) || !isTime(buildMs) || !isTime(rasterMs) || !isTime(event.ts)) continue
    frames.push({frameNumber, ts: event.ts, buildMs, rasterMs})
  }
  frames.sort((x, y) => x.ts - y.ts || x.frameNumber - y.frameNumber)
  const [earliest] = frames
  if (!earliest) return undefined
  const first = earliest.ts
  const kept = frames.slice(0, MAX_FRAMES)
  return {
    columns: FRAME_COLUMNS,
    rows: kept.map((frame) => [frame.frameNumber, round2((frame.ts - first) / 1000), round2(frame.buildMs), round2(frame.rasterMs)]),
    ...(frames.length > kept.length ? {omitted: frames.length - kept.length} : {}),
  }
}

/** What a measured repeat adds to the run file: its frame times, or why there are none. */
export async function readFrameTimes(app: PerfApp, sessionToken: unknown): Promise<{frameTimes: FrameTimes} | {frameTimesMissing: string}> {
  let trace: unknown
  try {
    trace = await app.callExtension('perf_trace', typeof sessionToken === 'string' ? {token: sessionToken} : {}, anyAnswer)
  } catch (error) {
    return {frameTimesMissing: `perf_trace failed: ${messageOf(error)}`}
  }
  const frameTimes = frameTimesFromTrace(trace)
  return frameTimes ? {frameTimes} : {frameTimesMissing: "the session's trace has no frame with build and raster times"}
}

/** The valid rows of a repeat read back from a run file (any file: rows that are not four
 *  times of at least 0 are skipped). */
export function frameRowsOf(repeat: unknown): FrameRow[] {
  const times = isJsonObject(repeat) ? repeat.frameTimes : undefined
  if (!isJsonObject(times) || !Array.isArray(times.rows)) return []
  const rows: FrameRow[] = []
  for (const row of times.rows.slice(0, MAX_FRAMES)) {
    if (isFrameRow(row)) rows.push(row)
  }
  return rows
}
