import type {Comparison, CompareRow} from './compare.js'

/** Rows the table shows before it points at --json. */
const MAX_ROWS = 20
/** A rise this large is shown as "more than" (--json has the number): it would not fit the column. */
const MAX_SHOWN_PCT = 100_000

const value = (v: number | string): string => (typeof v === 'number' ? v.toFixed(2) : v)

function delta(row: CompareRow): string {
  if (row.deltaPct === null) return row.verdict === 'info' ? '' : 'new'
  if (row.deltaPct >= MAX_SHOWN_PCT) return `>+${MAX_SHOWN_PCT - 1}%`
  return `${row.deltaPct >= 0 ? '+' : ''}${row.deltaPct.toFixed(1)}%`
}

function line(metric: string, a: string, b: string, change: string): string {
  return `${metric.padEnd(44)}${a.padStart(10)}${b.padStart(10)}${change.padStart(9)}`
}

/** The comparison as the terminal reads it. */
export function renderComparison(comparison: Comparison): string {
  const {thresholds, frames} = comparison
  const out = [
    `perf_compare: ${comparison.verdict} (per painted frame; warn +${thresholds.warn}%, error +${thresholds.error}%)`,
    `painted frames: ${frames.painted.a} -> ${frames.painted.b} (info, not gated)`,
  ]
  if (comparison.rows.length > 0) {
    out.push(line('metric', 'A', 'B', 'delta'))
    for (const row of comparison.rows.slice(0, MAX_ROWS)) {
      const tag = row.severity ? ` (${row.severity})` : row.verdict === 'improved' ? ' (improved)' : row.verdict === 'info' ? ' (info)' : ''
      out.push(line(row.metric, value(row.a), value(row.b), delta(row)) + tag)
    }
    if (comparison.rows.length > MAX_ROWS) out.push(`${comparison.rows.length - MAX_ROWS} more rows; pass --json for all.`)
  }
  out.push(`${comparison.unchanged} metrics unchanged.${comparison.timing.note ? ` ${comparison.timing.note}` : ''}`)
  return out.join('\n')
}
