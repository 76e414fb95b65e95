import type {RunFile, Spread, Thresholds} from './run-file.js'
import {DEFAULT_THRESHOLDS} from './run-file.js'

export type RowVerdict = 'regressed' | 'improved' | 'unchanged' | 'info'
export type Severity = 'error' | 'warn'

export interface CompareRow {
  metric: string
  a: number | string
  b: number | string
  /** null when A is 0 (no ratio) or for a context row. */
  deltaPct: number | null
  verdict: RowVerdict
  severity?: Severity
}

export interface Comparison {
  verdict: 'regressed' | 'improved' | 'unchanged'
  thresholds: Thresholds
  frames: {painted: {a: number; b: number}}
  rows: CompareRow[]
  unchanged: number
  timing: {gated: boolean; note?: string}
}

/** Metrics where more is better; a rise there is an improvement. */
const HIGHER_IS_BETTER = new Set(['wind.cacheHits'])
/** Floating-point slack when a difference is compared with the noise range. */
const EPSILON = 1e-9

const round1 = (value: number): number => Math.round(value * 10) / 10

/** The repeat-to-repeat range of a metric in a run (0 when it has none). */
function range(spread: Record<string, Spread>, metric: string): number {
  const entry = Object.hasOwn(spread, metric) ? spread[metric] : undefined
  return entry ? entry.max - entry.min : 0
}

/** Judges one metric: a change inside either run's noise range is no change. */
export function judge(
  metric: string,
  a: number,
  b: number,
  noise: number,
  thresholds: Thresholds,
  higherIsBetter = HIGHER_IS_BETTER.has(metric),
): CompareRow {
  if (a === 0 && b === 0) return {metric, a, b, deltaPct: 0, verdict: 'unchanged'}
  const deltaPct = round1((b / a - 1) * 100)
  // From 0, or from so little that the ratio overflows: a change with no ratio to show.
  if (!Number.isFinite(deltaPct)) {
    return higherIsBetter
      ? {metric, a, b, deltaPct: null, verdict: 'improved'}
      : {metric, a, b, deltaPct: null, verdict: 'regressed', severity: 'warn'}
  }
  if (Math.abs(b - a) <= noise + EPSILON) return {metric, a, b, deltaPct, verdict: 'unchanged'}
  const worse = higherIsBetter ? -deltaPct : deltaPct
  if (worse >= thresholds.error) return {metric, a, b, deltaPct, verdict: 'regressed', severity: 'error'}
  if (worse >= thresholds.warn) return {metric, a, b, deltaPct, verdict: 'regressed', severity: 'warn'}
  if (worse <= -thresholds.warn) return {metric, a, b, deltaPct, verdict: 'improved'}
  return {metric, a, b, deltaPct, verdict: 'unchanged'}
}

function judgeAll(
  prefix: string,
  a: Record<string, number>,
  b: Record<string, number>,
  noise: (metric: string) => number,
  thresholds: Thresholds,
): CompareRow[] {
  const metrics = [...new Set([...Object.keys(a), ...Object.keys(b)])].sort()
  return metrics.map((metric) => ({
    ...judge(metric, a[metric] ?? 0, b[metric] ?? 0, noise(metric), thresholds),
    metric: `${prefix}${metric}`,
  }))
}

/** Thresholds from B's scenario, else A's, else warn 10 / error 25. */
export function thresholdsOf(a: RunFile, b: RunFile): Thresholds {
  return b.scenario.thresholds ?? a.scenario.thresholds ?? DEFAULT_THRESHOLDS
}

const RANK: Record<string, number> = {'regressed-error': 0, 'regressed-warn': 1, improved: 2, info: 3}
const rankOf = (row: CompareRow): number => RANK[row.severity ? `${row.verdict}-${row.severity}` : row.verdict] ?? 4

/** Worst first: error regressions, warn regressions, improvements, info; within a group the
 *  largest change first, a change with no ratio (from 0) before any. */
export function orderRows(rows: CompareRow[]): CompareRow[] {
  const size = (row: CompareRow): number => (row.deltaPct === null ? Number.POSITIVE_INFINITY : Math.abs(row.deltaPct))
  return [...rows].sort((x, y) => rankOf(x) - rankOf(y) || size(y) - size(x))
}

function contextRows(a: RunFile, b: RunFile): CompareRow[] {
  const fields: Array<[string, (run: RunFile) => unknown]> = [
    ['scenario.name', (run) => run.scenario.name],
    ['env.target', (run) => run.env.target],
    ['env.buildMode', (run) => run.env.buildMode],
  ]
  const shown = (value: unknown): string => (value === undefined || value === null ? 'absent' : String(value))
  return fields
    .filter(([, read]) => shown(read(a)) !== shown(read(b)))
    .map(([metric, read]) => ({metric, a: shown(read(a)), b: shown(read(b)), deltaPct: null, verdict: 'info' as const}))
}

function timingNote(aHas: boolean, bHas: boolean): string {
  const who = !aHas && !bHas ? 'A and B have' : !aHas ? 'A has' : 'B has'
  return `Milliseconds were not compared: only timing-mode medians are, and ${who} no timing pass. Rerun both perf_runs with timing on.`
}

/** Judges run B against run A (both checked by `checkRun` first). */
export function compareRuns(a: RunFile, b: RunFile): Comparison {
  const thresholds = thresholdsOf(a, b)
  const gate = judgeAll(
    '',
    a.summary.perFrame,
    b.summary.perFrame,
    (m) => Math.max(range(a.summary.spread.perFrame, m), range(b.summary.spread.perFrame, m)),
    thresholds,
  )
  const aTiming = a.summary.timing
  const bTiming = b.summary.timing
  const gated = (aTiming?.repeats ?? 0) > 0 && (bTiming?.repeats ?? 0) > 0
  let timingRows: CompareRow[] = []
  if (gated && aTiming && bTiming) {
    const emulator = a.env.emulator === true || b.env.emulator === true
    timingRows = judgeAll(
      'timing.',
      aTiming.ms,
      bTiming.ms,
      (m) => Math.max(range(aTiming.spread.ms, m), range(bTiming.spread.ms, m)),
      thresholds,
    ).map((row) =>
      emulator && row.metric.startsWith('timing.rasterMs')
        ? {metric: row.metric, a: row.a, b: row.b, deltaPct: row.deltaPct, verdict: 'info' as const}
        : row,
    )
  }
  const judged = [...gate, ...timingRows]
  const rows = [...contextRows(a, b), ...judged]
  const gating = rows.filter((row) => row.verdict !== 'info')
  const verdict = gating.some((row) => row.verdict === 'regressed')
    ? 'regressed'
    : gating.some((row) => row.verdict === 'improved')
      ? 'improved'
      : 'unchanged'
  return {
    verdict,
    thresholds,
    frames: {painted: {a: a.summary.frames.painted, b: b.summary.frames.painted}},
    rows: orderRows(rows.filter((row) => row.verdict !== 'unchanged')),
    unchanged: rows.filter((row) => row.verdict === 'unchanged').length,
    timing: gated ? {gated} : {gated, note: timingNote((aTiming?.repeats ?? 0) > 0, (bTiming?.repeats ?? 0) > 0)},
  }
}

/** Exit 1 only on an error-level regression. */
export const hasErrorRegression = (comparison: Comparison): boolean =>
  comparison.rows.some((row) => row.verdict === 'regressed' && row.severity === 'error')
