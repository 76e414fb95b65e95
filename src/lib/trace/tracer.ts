import {redactToken} from '../output/redact-token.js'
import {checkOutputFile} from '../output-file.js'
import {isJsonObject} from '../shape.js'
import type {VerbContext} from '../verbs/types.js'
import {captureSeen, entryKey, newEntries, type Seen} from './capture.js'
import {TRACE_BOUNDS, type TraceHeader, type TraceSource, type TraceStep} from './format.js'
import {snapshotDiff} from './snapshot-diff.js'
import {appendTraceEntry, startTraceFile, TRACE_OUTPUT, traceSize} from './trace-file.js'

/** A step that has ended, as its front end saw it. */
export interface StepDone {
  via: TraceStep['via']
  /** The step line or the tool call, as written (`${env.NAME}`, never its value). */
  call: string
  startedAt: Date
  durationMs: number
  exitCode: number
  output: string
  /** The verb's result, when there is one (its post-action snapshot, a perf step's frames). */
  result?: unknown
  /** Whether the step acted on the app (a screenshot is taken after actions only). */
  acted: boolean
}

export interface TracerOptions {
  file: string
  source: TraceSource
  title: string
  version: string
  /** A screenshot after each step. */
  screenshots: boolean
  /** Every text written goes through it (secrets masked, a report's folders taken out). */
  clean?: (text: string) => string
  /** The file was started already (a session's trace, by tapir trace start): append only. */
  appendOnly?: boolean
}

/**
 * Writes a trace as it goes: after each step, what the app shows then, one whole JSON line per
 * step (docs/traces.md). The header is written with the first step, when the app and its screen
 * are known. The VM Service token is hidden in every text, and `clean` runs over all of it.
 */
export class Tracer {
  private count = 0
  private lastSnapshot: string | undefined
  private size = 0
  private started: boolean
  private droppedSteps = 0
  /** The line of the step before, waiting for its screenshot. */
  private pending: Promise<void> | undefined
  /** The console entries and exceptions the last capture read. */
  private lastEntries: {console: Set<string>; exceptions: Set<string>} | undefined

  constructor(private readonly options: TracerOptions) {
    this.started = options.appendOnly === true
    if (this.started) {
      checkOutputFile(options.file, TRACE_OUTPUT)
      this.size = traceSize(options.file)
    }
  }

  get file(): string {
    return this.options.file
  }

  /**
   * Reads what the app shows now, through `context`, and appends the step. A step with a
   * screenshot answers once the other reads are in, with its line still waiting for the image:
   * the screenshot was asked for first, so the app captured the screen this step left, and the
   * next step may start while the app rasterises and encodes it (an engine does that off the UI
   * thread), and its reads may run while that image is on its way. The line is written before the next
   * step's (each step waits for the one before once its own reads are in) and before the closing
   * line; call `flush` to wait for it.
   */
  async step(context: VerbContext, done: StepDone): Promise<void> {
    // The bounds are checked against the size before the line of the step before, which may still
    // be on its way (waiting for its screenshot while this step's reads wait on the app): the
    // file's own bound is checked again once that line is written.
    if (TRACE_BOUNDS.maxBytes - this.size <= 0) {
      await this.flush()
      this.droppedSteps++
      return
    }
    const detail = this.size < TRACE_BOUNDS.detailUntilBytes
    const shoot = this.options.screenshots && done.acted
    const seen = detail
      ? await captureSeen(context, done.startedAt, {
          screenshot: shoot && this.size < TRACE_BOUNDS.screenshotsUntilBytes,
          ...(this.lastEntries ? {seen: this.lastEntries} : {}),
          viewport: !this.started,
        })
      : {missing: [`everything but the step: the trace reached ${mb(TRACE_BOUNDS.detailUntilBytes)}`]}
    const missing = [...seen.missing]
    if (detail && shoot && this.size >= TRACE_BOUNDS.screenshotsUntilBytes)
      missing.push(`screenshot: the trace reached ${mb(TRACE_BOUNDS.screenshotsUntilBytes)}`)
    const clean = (text: string): string => {
      const hidden = redactToken(text)
      return this.options.clean ? this.options.clean(hidden) : hidden
    }
    const consoleEntries = seen.console && newEntries(seen.console, this.lastEntries?.console, done.startedAt)
    const thrown = seen.exceptions && newEntries(seen.exceptions, this.lastEntries?.exceptions, done.startedAt)
    if (seen.console && seen.exceptions)
      this.lastEntries = {console: new Set(seen.console.map(entryKey)), exceptions: new Set(seen.exceptions.map(entryKey))}
    const snapshot = seen.snapshot === undefined ? undefined : clean(cut(seen.snapshot, TRACE_BOUNDS.snapshotChars))
    const diff =
      snapshot !== undefined && this.lastSnapshot !== undefined
        ? snapshotDiff(this.lastSnapshot, snapshot, TRACE_BOUNDS.diffLines)
        : undefined
    if (snapshot !== undefined) this.lastSnapshot = snapshot
    await this.flush()
    if (TRACE_BOUNDS.maxBytes - this.size <= 0) {
      this.droppedSteps++
      return
    }
    const keepSnapshot = snapshot !== undefined && this.size < TRACE_BOUNDS.snapshotsUntilBytes
    if (snapshot !== undefined && !keepSnapshot)
      missing.push(`snapshot (the diff is kept): the trace reached ${mb(TRACE_BOUNDS.snapshotsUntilBytes)}`)
    const jank = jankOf(done.result)
    const step: TraceStep = {
      kind: 'step',
      n: ++this.count,
      via: done.via,
      call: clean(done.call),
      startedAt: done.startedAt.toISOString(),
      durationMs: done.durationMs,
      exitCode: done.exitCode,
      ok: done.exitCode === 0,
      output: clean(cut(done.output, TRACE_BOUNDS.outputChars)),
      ...(seen.app === undefined ? {} : {app: seen.app}),
      ...(seen.route === undefined ? {} : {route: clean(seen.route)}),
      ...(keepSnapshot ? {snapshot} : {}),
      ...(diff === undefined ? {} : {diff}),
      ...(consoleEntries ? {console: cleanEntries(consoleEntries, clean)} : {}),
      ...(thrown ? {exceptions: cleanEntries(thrown, clean)} : {}),
      ...(jank === undefined ? {} : {jank}),
      ...(missing.length > 0 ? {missing: missing.map(clean)} : {}),
    }
    const device = deviceOf(context)
    const write = (): void => {
      if (!this.started) {
        startTraceFile(this.options.file, this.header(seen, device, step))
        this.started = true
      }
      this.size = appendTraceEntry(this.options.file, step)
    }
    if (!seen.shot) return write()
    this.pending = seen.shot.then(({screenshot, missing: why}) => {
      if (screenshot) step.screenshot = screenshot
      if (why !== undefined) step.missing = [...(step.missing ?? []), clean(why)]
      write()
    })
  }

  /** Waits until every step handed in is written; throws what writing one threw. */
  async flush(): Promise<void> {
    const pending = this.pending
    this.pending = undefined
    await pending
  }

  /** Ends the trace with its closing line (a trace cut short by a crash has none). */
  async close(): Promise<void> {
    await this.flush()
    if (!this.started) return
    appendTraceEntry(this.options.file, {
      kind: 'end',
      endedAt: new Date().toISOString(),
      ...(this.droppedSteps > 0 ? {droppedSteps: this.droppedSteps} : {}),
    })
  }

  /** Whether any step was written. */
  get written(): boolean {
    return this.started && this.count > 0
  }

  private header({app, viewport}: Seen, device: string | undefined, first: TraceStep): TraceHeader {
    return {
      tapirTrace: 1,
      kind: 'header',
      tapir: this.options.version,
      source: this.options.source,
      title: this.options.title,
      startedAt: first.startedAt,
      ...(app === undefined ? {} : {app}),
      ...(device === undefined ? {} : {device}),
      ...(viewport ? {viewport} : {}),
      bounds: TRACE_BOUNDS,
    }
  }
}

/** The header of a trace that starts before any step (tapir trace start): what is known then. */
export function openingHeader(options: {version: string; source: TraceSource; title: string; device?: string}): TraceHeader {
  return {
    tapirTrace: 1,
    kind: 'header',
    tapir: options.version,
    source: options.source,
    title: options.title,
    startedAt: new Date().toISOString(),
    ...(options.device === undefined ? {} : {device: options.device}),
    bounds: TRACE_BOUNDS,
  }
}

/** The session's device, when the context knows it. */
export function deviceOf(context: VerbContext): string | undefined {
  try {
    return context.target?.().device
  } catch {
    return undefined
  }
}

/** A perf step's frame figures (perf_end's summary), when its result has them. */
function jankOf(result: unknown): unknown {
  if (!isJsonObject(result) || !isJsonObject(result.summary) || !isJsonObject(result.summary.frames)) return undefined
  return {budgetMs: result.summary.budgetMs, frames: result.summary.frames}
}

function cleanEntries(entries: unknown[], clean: (text: string) => string): unknown[] {
  const deep = (value: unknown): unknown =>
    typeof value === 'string'
      ? clean(cut(value, TRACE_BOUNDS.entryChars))
      : Array.isArray(value)
        ? value.map(deep)
        : isJsonObject(value)
          ? Object.fromEntries(Object.entries(value).map(([key, entry]) => [key, deep(entry)]))
          : value
  return entries.map(deep)
}

const cut = (text: string, max: number): string => (text.length > max ? `${text.slice(0, max - 1)}…` : text)
const mb = (bytes: number): string => `${bytes / 1024 / 1024} MB`
