/** tapir:perf_compare --html: run B judged against run A on one page. */
import type {CompareRow, Comparison} from '../compare.js'
import type {RunFile, Spread} from '../run-file.js'
import {blockBars} from './charts.js'
import {esc, facts, num, page, pct, section, type Level} from './html.js'
import {runView, SERIES_LABELS, seriesFrames, type RunView} from './run-data.js'
import {distribution, insightCards, writtenAt} from './sections.js'

/** Blocks shown in the attribution that changed most. */
const TOP_BLOCKS = 8

export interface CompareReportInput {
  a: RunFile
  b: RunFile
  comparison: Comparison
  aPath: string
  bPath: string
}

const VERDICT_LEVEL = (comparison: Comparison): Level => {
  if (comparison.verdict === 'improved') return 'improved'
  if (comparison.verdict === 'unchanged') return 'unchanged'
  return comparison.rows.some((row) => row.verdict === 'regressed' && row.severity === 'error') ? 'error' : 'warn'
}

const rowLevel = (row: CompareRow): Level =>
  row.verdict === 'regressed'
    ? (row.severity ?? 'warn')
    : row.verdict === 'improved'
      ? 'improved'
      : row.verdict === 'info'
        ? 'info'
        : 'unchanged'

/** A metric's repeat-to-repeat range in one run: [min, max], from the spread perf_compare read. */
function rangeOf(run: RunFile, metric: string): Spread | undefined {
  const timing = metric.startsWith('timing.')
  const spreads = timing ? run.summary.timing?.spread.ms : run.summary.spread.perFrame
  const name = timing ? metric.slice('timing.'.length) : metric
  return spreads && Object.hasOwn(spreads, name) ? spreads[name] : undefined
}

const shownRange = (spread: Spread | undefined): string => (spread ? `${num(spread.min)}–${num(spread.max)}` : '–')
const value = (v: number | string): string => (typeof v === 'number' ? num(v) : esc(v))

function metricRow(row: CompareRow, a: RunFile, b: RunFile): string {
  const level = rowLevel(row)
  const ra = rangeOf(a, row.metric)
  const rb = rangeOf(b, row.metric)
  const noise = ra || rb ? Math.max(ra ? ra.max - ra.min : 0, rb ? rb.max - rb.min : 0) : undefined
  const tag = row.verdict === 'regressed' ? `regressed (${row.severity})` : row.verdict
  const delta = row.verdict === 'info' && row.deltaPct === null ? '' : pct(row.deltaPct)
  return `<tr class="level-${level}" data-metric="${esc(row.metric)}"><td>${esc(row.metric)}</td><td>${value(row.a)}</td><td>${value(row.b)}</td><td>${delta}</td><td>${shownRange(ra)}</td><td>${shownRange(rb)}</td><td>${noise === undefined ? '–' : `±${num(noise)}`}</td><td><span class="tag level-${level}">${esc(tag)}</span></td></tr>`
}

/** Every judged metric perf_compare listed as unchanged (it lists only what changed). */
function unchangedRows(comparison: Comparison, a: RunFile, b: RunFile): CompareRow[] {
  const listed = new Set(comparison.rows.map((row) => row.metric))
  const metrics = (run: RunFile, timing: boolean) =>
    Object.keys((timing ? run.summary.timing?.ms : run.summary.perFrame) ?? {}).map((m) => (timing ? `timing.${m}` : m))
  const all = [
    ...new Set([
      ...metrics(a, false),
      ...metrics(b, false),
      ...(comparison.timing.gated ? [...metrics(a, true), ...metrics(b, true)] : []),
    ]),
  ]
  const read = (run: RunFile, metric: string): number =>
    (metric.startsWith('timing.') ? run.summary.timing?.ms[metric.slice(7)] : run.summary.perFrame[metric]) ?? 0
  return all
    .filter((metric) => !listed.has(metric))
    .sort()
    .map((metric) => {
      const av = read(a, metric)
      const bv = read(b, metric)
      return {
        metric,
        a: av,
        b: bv,
        deltaPct: av === 0 ? (bv === 0 ? 0 : null) : Math.round((bv / av - 1) * 1000) / 10,
        verdict: 'unchanged' as const,
      }
    })
}

const HEAD =
  '<thead><tr><th>metric</th><th>A</th><th>B</th><th>delta</th><th>A range</th><th>B range</th><th>noise</th><th>verdict</th></tr></thead>'

function metricsPart(input: CompareReportInput): string {
  const {comparison, a, b} = input
  const {warn, error} = comparison.thresholds
  const unchanged = unchangedRows(comparison, a, b)
  const listed =
    comparison.rows.length === 0
      ? '<p>No metric moved past its noise and the thresholds.</p>'
      : `<table class="metrics"><caption>Counts per painted frame (milliseconds only from timing repeats). A change inside either run's repeat-to-repeat range (the noise) is unchanged; thresholds: warn +${num(warn)}%, error +${num(error)}%.</caption>${HEAD}<tbody>${comparison.rows.map((row) => metricRow(row, a, b)).join('')}</tbody></table>`
  const rest =
    unchanged.length === 0
      ? ''
      : `<details><summary>${unchanged.length} metrics unchanged</summary><table class="metrics unchanged">${HEAD}<tbody>${unchanged.map((row) => metricRow(row, a, b)).join('')}</tbody></table></details>`
  return `${listed}${rest}${comparison.timing.note ? `<p class="muted">${esc(comparison.timing.note)}</p>` : ''}`
}

function distributionPart(a: RunView, b: RunView, budgetMs: number): string {
  const ra = a.repeats
  const rb = b.repeats
  const timing = seriesFrames(ra, 'timing').length > 0 && seriesFrames(rb, 'timing').length > 0
  const key = timing ? 'timing' : 'attribution'
  const fa = seriesFrames(ra, key)
  const fb = seriesFrames(rb, key)
  if (fa.length === 0 || fb.length === 0) {
    const who = fa.length === 0 && fb.length === 0 ? 'Neither run file' : fa.length === 0 ? 'Run A' : 'Run B'
    return `<p class="muted">${who} keeps per-frame times (written by an older tapir, or the app's trace had none), so there is no distribution to draw. Rerun tapir:perf_run to get them.</p>`
  }
  const note = timing
    ? 'Frames of the timing repeats of both runs (profiling off: the honest milliseconds).'
    : 'Frames of the attribution repeats (profiling on, so milliseconds are inflated: compare shapes, not values). Run both with --timing for honest ones.'
  return `<p class="muted">${note}</p>${distribution(
    [
      {key: 'A', label: `A: ${SERIES_LABELS[key]}`, build: fa.map((f) => f[2]), raster: fa.map((f) => f[3])},
      {key: 'B', label: `B: ${SERIES_LABELS[key]}`, build: fb.map((f) => f[2]), raster: fb.map((f) => f[3])},
    ],
    budgetMs,
  )}`
}

function blocksPart(views: {a: RunView; b: RunView}): string {
  const a = views.a.blocks
  const b = views.b.blocks
  const names = [...new Set([...a.keys(), ...b.keys()])]
  const rows = names
    .map((name) => {
      const av = a.get(name)
      const bv = b.get(name)
      return {
        name,
        selfA: av?.selfMsPerFrame ?? 0,
        selfB: bv?.selfMsPerFrame ?? 0,
        countA: av?.countPerFrame ?? 0,
        countB: bv?.countPerFrame ?? 0,
      }
    })
    .sort(
      (x, y) => Math.abs(y.selfB - y.selfA) - Math.abs(x.selfB - x.selfA) || Math.abs(y.countB - y.countA) - Math.abs(x.countB - x.countA),
    )
    .slice(0, TOP_BLOCKS)
  const ratio = (from: number, to: number) => (from === 0 ? (to === 0 ? '' : 'new') : pct(Math.round((to / from - 1) * 1000) / 10))
  const [top] = rows
  if (!top) return '<p class="muted">Neither run reported widget blocks (timing-only runs, or profiling reported none).</p>'
  const headline = `<p class="headline">Changed most: <strong class="block-name">${esc(top.name)}</strong>, ${num(top.selfA)} → ${num(top.selfB)} ms self time per painted frame (${ratio(top.selfA, top.selfB) || 'no change'}), ${num(top.countA)} → ${num(top.countB)} builds per frame.</p>`
  return `${headline}${blockBars(
    rows.map((row) => ({name: row.name, values: [row.selfA, row.selfB]})),
    [
      {key: 'A', label: 'A'},
      {key: 'B', label: 'B'},
    ],
    'self ms per painted frame (median of the attribution repeats)',
  )}
<table class="blocks"><thead><tr><th>widget</th><th>A self ms/frame</th><th>B self ms/frame</th><th>delta</th><th>A builds/frame</th><th>B builds/frame</th><th>delta</th></tr></thead><tbody>${rows
    .map(
      (row) =>
        `<tr><td>${esc(row.name)}</td><td>${num(row.selfA)}</td><td>${num(row.selfB)}</td><td>${ratio(row.selfA, row.selfB)}</td><td>${num(row.countA)}</td><td>${num(row.countB)}</td><td>${ratio(row.countA, row.countB)}</td></tr>`,
    )
    .join('')}</tbody></table>`
}

const VERDICT_NOTE: Record<Level, string> = {
  error: 'An error-level regression: perf_compare exits 1.',
  warn: 'A warn-level regression: perf_compare still exits 0.',
  improved: 'Something improved past the thresholds and nothing regressed.',
  unchanged: 'Nothing moved past its noise range and the thresholds.',
  info: '',
  ok: '',
}

export function compareReportHtml(input: CompareReportInput): string {
  const {a, b, comparison} = input
  const views = {a: runView(a), b: runView(b)}
  const level = VERDICT_LEVEL(comparison)
  const {budgetMs} = views.b
  const side = (run: RunFile, path: string, who: string): Array<[string, unknown]> => [
    [`${who} file`, path],
    [`${who} scenario`, run.scenario.name],
    [`${who} label`, run.label],
    [`${who} target`, run.env.target],
    [`${who} build mode`, run.env.buildMode],
  ]
  const body = `<header><h1>perf_compare: B against A</h1>
${facts(side(a, input.aPath, 'A'))}
${facts(side(b, input.bPath, 'B'))}
${facts([['written', writtenAt()]])}</header>
<div class="verdict level-${level}">perf_compare: ${esc(comparison.verdict)}<small>${VERDICT_NOTE[level]} Painted frames ${num(comparison.frames.painted.a)} → ${num(comparison.frames.painted.b)} (median; not gated). Thresholds: warn +${num(comparison.thresholds.warn)}%, error +${num(comparison.thresholds.error)}%.</small></div>
${section('Metrics', metricsPart(input), 'metrics')}
${section('Frame times', distributionPart(views.a, views.b, budgetMs), 'distribution')}
${section('Widget blocks that changed most', blocksPart(views), 'blocks')}
${section('Insights of B (median repeat)', insightCards(views.b.insights), 'insights')}
<details><summary>Insights of A</summary>${insightCards(views.a.insights)}</details>`
  return page(`perf_compare: ${comparison.verdict}`, body)
}
