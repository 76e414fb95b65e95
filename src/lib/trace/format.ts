import {anything, boolean, integer, list, literal, number, object, optional, string, type Infer} from '../shape.js'

/** The first bytes of every trace: a trace is JSON lines, and its first line is the header. */
export const TRACE_HEAD = '{"tapirTrace":1,'

/** What one trace may hold. Past each byte bound the next part is dropped first: screenshots,
 *  then whole snapshots (the diff stays), then everything but the step's line, time and result;
 *  past maxBytes no step is written. */
export const TRACE_BOUNDS = {
  maxBytes: 24 * 1024 * 1024,
  screenshotsUntilBytes: 16 * 1024 * 1024,
  snapshotsUntilBytes: 20 * 1024 * 1024,
  detailUntilBytes: 23 * 1024 * 1024,
  outputChars: 4000,
  snapshotChars: 200_000,
  diffLines: 400,
  consoleEntries: 100,
  exceptionEntries: 50,
  entryChars: 4000,
} as const

export const TRACE_SOURCES = ['test', 'run', 'session', 'mcp'] as const
export type TraceSource = (typeof TRACE_SOURCES)[number]

/** The first line of a trace. */
export const headerShape = object({
  tapirTrace: literal(1),
  kind: literal('header'),
  /** tapir's version. */
  tapir: string,
  source: literal(...TRACE_SOURCES),
  /** What was traced, in words: a flow file and attempt, a tapir:run, an MCP server. */
  title: string,
  startedAt: string,
  /** The app's package (tapir or dusk), when known as the trace began. */
  app: optional(string),
  device: optional(string),
  /** The app's viewport in logical pixels, and its device pixel ratio, as the app's screenshot
   *  extension measures it (its geometry mode, which rasterises nothing). */
  viewport: optional(object({width: number, height: number, devicePixelRatio: optional(number)})),
  bounds: optional(anything),
})
export type TraceHeader = Infer<typeof headerShape>

export const screenshotShape = object({format: string, width: optional(integer), height: optional(integer), base64: string})
export type TraceScreenshot = Infer<typeof screenshotShape>

/** One step: a step line of tapir:run or tapir test, a CLI verb, or an MCP call. */
export const stepShape = object({
  kind: literal('step'),
  /** 1-based, in the order written (per process: a session's trace is written by many). */
  n: integer,
  /** `cli` (a verb's own command line), `run` (a tapir:run or tapir test step), `mcp` (a tool call). */
  via: literal('cli', 'run', 'mcp'),
  /** The step line, or the tool's name and arguments, secrets masked. */
  call: string,
  startedAt: string,
  durationMs: number,
  exitCode: integer,
  ok: boolean,
  output: string,
  /** The app's package (tapir or dusk), once a connection was open. */
  app: optional(string),
  route: optional(string),
  /** The snapshot after the step. */
  snapshot: optional(string),
  /** What changed since the snapshot before, as `+ line` and `- line` (absent for the first). */
  diff: optional(list(string)),
  screenshot: optional(screenshotShape),
  console: optional(list(anything)),
  exceptions: optional(list(anything)),
  /** The frame figures of a perf step's report. */
  jank: optional(anything),
  /** What was not captured, and why (the app could not, or a bound was reached). */
  missing: optional(list(string)),
})
export type TraceStep = Infer<typeof stepShape>

/** The last line of a trace that was closed, not cut short. */
export const endShape = object({kind: literal('end'), endedAt: string, droppedSteps: optional(integer)})
export type TraceEnd = Infer<typeof endShape>

export type TraceEntry = TraceHeader | TraceStep | TraceEnd

/** A trace as read back. */
export interface Trace {
  header: TraceHeader
  steps: TraceStep[]
  end?: TraceEnd
  /** Lines that could not be read: the last one cut short by a crash, or any other. */
  unreadable: number
}
