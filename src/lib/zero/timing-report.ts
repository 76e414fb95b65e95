// A timing-mode perf_end report built from per-frame timings (an app with no package: the
// Flutter.Frame events of the session window), in the shape and by the rules the tool reference
// states for tapir_perf_end and tapir_perf_insight: frames against the 16.7 ms budget, dropped
// frames from frameNumber gaps, nearest-rank percentiles, and the framesOverBudget,
// framesDropped, framesUnreported and sourcesMissing insights.

/** The frame budget at 60 Hz, in milliseconds. */
export const BUDGET_MS = 16.7
/** A frame share past which the frame rules are errors rather than warnings. */
const ERROR_SHARE = 0.1
/** The frameNumber step that counts as a drop. */
const DROP_STEP = 2
const WORST_FRAMES = 5

/** One rasterised frame: its engine number, when its build started (µs) and its two threads' ms. */
export interface FrameTime {
  readonly number: number
  readonly startUs: number
  readonly buildMs: number
  readonly rasterMs: number
}

export interface Distribution {
  p50: number
  p90: number
  p99: number
  worst: number
}

export interface Gap {
  after: number
  next: number
  missing: number
}

export interface Coverage {
  framesDrawn: number
  framesSummarized: number
  framesOutsideSession: number
  complete: boolean
  missing: string[]
}

/** A type, not an interface: it is kept as JSON (an interface has no index signature). */
export type Insight = {
  id: string
  severity: 'error' | 'warn' | 'info'
  title: string
  summary: string
  evidence: {metric: string; value: number; perFrame: number | null; threshold: number}
  estimatedSavingsMs?: number
  nextStep: string
  detail: Record<string, unknown>
}

/** What the session window saw, besides its frames. */
export interface SessionWindow {
  token: string
  /** The window on the frames' clock, in microseconds. */
  startUs: number
  endUs: number
  /** The newest frame number known when the session opened, and when it closed. */
  livenessBaseline: number
  livenessFinal: number
  /** Frames reported past the baseline whose build started outside the window. */
  framesOutsideSession: number
  env: Record<string, unknown>
  /** Sources the read could not have, each with what that leaves out. */
  missing: Readonly<Record<string, string>>
}

export type Closing =
  {refused: true; report: Record<string, unknown>} | {refused: false; report: Record<string, unknown>; insights: Insight[]}

const round2 = (value: number): number => Math.round(value * 100) / 100
const slower = (frame: FrameTime): number => Math.max(frame.buildMs, frame.rasterMs)
const overBudget = (frame: FrameTime): boolean => slower(frame) > BUDGET_MS

/** Nearest-rank percentiles and the worst, two decimals; zeros for no frames. */
export function distribution(values: readonly number[]): Distribution {
  if (values.length === 0) return {p50: 0, p90: 0, p99: 0, worst: 0}
  const sorted = [...values].sort((a, b) => a - b)
  const rank = (p: number): number => round2(sorted[Math.max(0, Math.ceil(p * sorted.length) - 1)] ?? 0)
  return {p50: rank(0.5), p90: rank(0.9), p99: rank(0.99), worst: round2(sorted[sorted.length - 1] ?? 0)}
}

/** frameNumber steps of 2 or more between consecutive rasterised frames. */
export function gapsOf(frames: readonly FrameTime[]): Gap[] {
  const gaps: Gap[] = []
  frames.forEach((frame, i) => {
    const after = frames[i - 1]?.number
    const next = frame.number
    if (after !== undefined && next - after >= DROP_STEP) gaps.push({after, next, missing: next - after - 1})
  })
  return gaps
}

/** perf_end's answer: the refusal when nothing was drawn in the window, else the timing report. */
export function closeTimingSession(inWindow: readonly FrameTime[], window: SessionWindow): Closing {
  const frames = [...inWindow].sort((a, b) => a.number - b.number)
  const framesDrawn = Math.max(0, window.livenessFinal - window.livenessBaseline)
  if (framesDrawn <= 1 || frames.length === 0) return {refused: true, report: refusal(window, framesDrawn, frames.length)}
  const gaps = gapsOf(frames)
  const dropped = gaps.reduce((sum, gap) => sum + gap.missing, 0)
  const painted = frames.length
  const missing = Object.keys(window.missing)
  const coverage: Coverage = {
    framesDrawn,
    framesSummarized: painted,
    framesOutsideSession: window.framesOutsideSession,
    // Every frame number the liveness advanced by is painted, dropped or outside the window.
    complete: painted + dropped + window.framesOutsideSession >= framesDrawn,
    missing,
  }
  const facts: Facts = {frames, painted, count: painted + dropped, gaps, coverage, window}
  const raised = [framesOverBudget, framesDropped, framesUnreported, sourcesMissing].flatMap((rule) => rule(facts) ?? [])
  const insights = raised
    .map((draft, index) => ({id: `I${index + 1}`, ...draft}))
    .sort(
      (a, b) =>
        SEVERITY_RANK[a.severity] - SEVERITY_RANK[b.severity] ||
        (b.estimatedSavingsMs ?? 0) - (a.estimatedSavingsMs ?? 0) ||
        Number(a.id.slice(1)) - Number(b.id.slice(1)),
    )
  return {
    refused: false,
    insights,
    report: {
      sessionToken: window.token,
      refused: false,
      mode: 'timing',
      env: window.env,
      coverage,
      summary: {
        durationMs: round2((window.endUs - window.startUs) / 1000),
        budgetMs: BUDGET_MS,
        frames: {
          count: facts.count,
          painted,
          dropped,
          overBudget: frames.filter(overBudget).length,
          overBudgetBuild: frames.filter((frame) => frame.buildMs > BUDGET_MS).length,
          overBudgetRaster: frames.filter((frame) => frame.rasterMs > BUDGET_MS).length,
          buildMs: distribution(frames.map((frame) => frame.buildMs)),
          rasterMs: distribution(frames.map((frame) => frame.rasterMs)),
        },
      },
      counters: null,
      // At most four rules apply in timing mode, within the six a report shows: nothing is cut.
      insights: insights.map(({summary: _summary, detail: _detail, ...rest}) => rest),
      omitted: {},
    },
  }
}

function refusal(window: SessionWindow, framesDrawn: number, inWindow: number): Record<string, unknown> {
  const {livenessBaseline, livenessFinal} = window
  const drew =
    framesDrawn <= 1
      ? `The engine drew ${framesDrawn} frame(s) during the session (frame number ${livenessBaseline} -> ${livenessFinal})`
      : `The engine reported ${framesDrawn} frame(s) after the session's baseline but ${inWindow} started inside it`
  return {
    sessionToken: window.token,
    refused: true,
    mode: 'timing',
    coverage: {framesDrawn, livenessBaseline, livenessFinal, complete: false},
    reason:
      `${drew}, so there is nothing to measure: the app is hidden, minimised or paused, or the interaction drew nothing. ` +
      'No metrics are reported, since an empty report would read as fast. Bring the app to the front and run the session again.',
  }
}

type Draft = Omit<Insight, 'id'>

interface Facts {
  frames: readonly FrameTime[]
  painted: number
  /** painted + dropped */
  count: number
  gaps: readonly Gap[]
  coverage: Coverage
  window: SessionWindow
}

const SEVERITY_RANK: Readonly<Record<Insight['severity'], number>> = {error: 0, warn: 1, info: 2}

const drill = 'Run tapir_perf_insight with this id for'
const frameRow = (frame: FrameTime) => ({
  frameNumber: frame.number,
  buildMs: round2(frame.buildMs),
  rasterMs: round2(frame.rasterMs),
  blocks: [],
})

function framesOverBudget({frames, painted}: Facts): Draft | undefined {
  const over = frames.filter(overBudget)
  const worst = [...over].sort((a, b) => slower(b) - slower(a) || a.number - b.number)
  const [top] = worst
  if (top === undefined) return undefined
  const build = over.filter((frame) => frame.buildMs > BUDGET_MS).length
  const raster = over.filter((frame) => frame.rasterMs > BUDGET_MS).length
  const share = over.length / painted
  return {
    severity: share > ERROR_SHARE ? 'error' : 'warn',
    title: `${over.length} of ${painted} painted frames ran past the ${BUDGET_MS}ms budget`,
    summary:
      `${over.length} frame(s) took longer than ${BUDGET_MS}ms on their slower thread (${build} on build, ${raster} on raster); ` +
      `the worst, frame ${top.number}, took ${round2(slower(top))}ms. Most of the overrun is on the ${build >= raster ? 'build (UI thread)' : 'raster thread'}.`,
    evidence: {metric: 'frames.overBudget', value: over.length, perFrame: round2(share), threshold: BUDGET_MS},
    estimatedSavingsMs: round2(over.reduce((sum, frame) => sum + slower(frame) - BUDGET_MS, 0)),
    nextStep: `${drill} the worst frames; tapir install adds attribution sessions that name the widgets those frames built.`,
    detail: {
      budgetMs: BUDGET_MS,
      overBudgetBuild: build,
      overBudgetRaster: raster,
      worstFrames: worst.slice(0, WORST_FRAMES).map(frameRow),
    },
  }
}

function framesDropped({frames, count, gaps}: Facts): Draft | undefined {
  const dropped = gaps.reduce((sum, gap) => sum + gap.missing, 0)
  const [first] = gaps
  if (dropped === 0 || first === undefined) return undefined
  const share = dropped / count
  return {
    severity: share > ERROR_SHARE ? 'error' : 'warn',
    title: `${dropped} frame(s) dropped: frameNumber skipped ${gaps.length} time(s)`,
    summary:
      `The engine never rasterised ${dropped} of ${count} frames; the first gap follows frame ${first.after} (next delivered: ${first.next}). ` +
      'A frame that overruns its budget makes the engine skip the vsyncs it ate.',
    evidence: {metric: 'frames.dropped', value: dropped, perFrame: round2(share), threshold: DROP_STEP},
    estimatedSavingsMs: round2(dropped * BUDGET_MS),
    nextStep: `${drill} the gaps, then read the frame named in each gap's "after": its cost is what the skipped frames waited on.`,
    detail: {
      gaps,
      framesBeforeGaps: gaps.flatMap((gap) => frames.filter((frame) => frame.number === gap.after)).map(frameRow),
    },
  }
}

function framesUnreported({coverage, count, painted}: Facts): Draft | undefined {
  const unreported = coverage.framesDrawn - count - coverage.framesOutsideSession
  if (unreported <= 0) return undefined
  return {
    severity: 'warn',
    title: `${unreported} drawn frame(s) were never reported`,
    summary:
      `The frame number advanced by ${coverage.framesDrawn}, but only ${painted} frame(s) arrived inside the session, ` +
      `${count - painted} were dropped and ${coverage.framesOutsideSession} fell outside it.`,
    evidence: {
      metric: 'coverage.framesSummarized',
      value: unreported,
      perFrame: round2(unreported / Math.max(coverage.framesDrawn, 1)),
      threshold: 0,
    },
    nextStep: `${drill} the coverage map; keep the app in front until perf_end returns.`,
    detail: {coverage},
  }
}

function sourcesMissing({coverage, window}: Facts): Draft | undefined {
  const {missing} = coverage
  if (missing.length === 0) return undefined
  return {
    severity: 'info',
    title: `Sources not read: ${missing.join(', ')}`,
    summary: `The report has no data from ${missing.join(', ')}; read those parts as unknown, not as zero.`,
    evidence: {metric: 'coverage.missing', value: missing.length, perFrame: null, threshold: 0},
    nextStep: `${drill} what each missing source leaves out.`,
    detail: {coverage, missing: missing.map((source) => ({source, effect: window.missing[source] ?? 'not read'}))},
  }
}
