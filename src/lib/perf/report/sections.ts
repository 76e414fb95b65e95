/** Sections the run report and the comparison share. */
import {histograms, type Series} from './charts.js'
import {esc, num, type Level} from './html.js'
import {plainTitle, whatToChange} from './plain-words.js'
import {percentiles, type InsightView} from './run-data.js'

const SEVERITY_LEVEL: Record<string, Level> = {error: 'error', warn: 'warn', info: 'info'}

export function insightCards(insights: readonly InsightView[]): string {
  if (insights.length === 0) return '<p class="muted">No insight.</p>'
  return insights
    .map((insight) => {
      const level = SEVERITY_LEVEL[insight.severity] ?? 'info'
      const savings = insight.estimatedSavingsMs === undefined ? '' : ` · about ${num(insight.estimatedSavingsMs)} ms to save`
      const change = whatToChange(insight.nextStep, insight.metric)
      return `<div class="insight level-${level}"><span class="tag level-${level}">${esc(insight.severity)}</span> <span class="title">${esc(plainTitle(insight.title))}</span>
${insight.evidence ? `<p class="muted">${esc(insight.evidence)}${savings}</p>` : ''}${change ? `<p class="change">What to change: ${esc(change)}</p>` : ''}</div>`
    })
    .join('\n')
}

/** The build and raster histograms of some series, and their percentiles in a table. */
export function distribution(
  series: ReadonlyArray<{key: string; label: string; build: number[]; raster: number[]}>,
  budgetMs: number,
): string {
  const of = (thread: 'build' | 'raster'): Series[] => series.map((s) => ({key: s.key, label: s.label, values: s[thread]}))
  const charts = histograms(
    [
      {thread: 'build', title: 'Build (UI thread): share of frames per bucket', series: of('build')},
      {thread: 'raster', title: 'Raster (raster thread): share of frames per bucket', series: of('raster')},
    ],
    budgetMs,
  )
  const rows = series.flatMap((s) =>
    (['build', 'raster'] as const).map((thread) => {
      const p = percentiles(s[thread])
      const over = s[thread].filter((value) => value > budgetMs).length
      return `<tr><td>${esc(s.label)}, ${thread}</td><td>${s[thread].length}</td><td>${num(p?.p50)}</td><td>${num(p?.p90)}</td><td>${num(p?.p99)}</td><td>${num(p?.worst)}</td><td>${over}</td></tr>`
    }),
  )
  return `${charts}
<table class="percentiles"><caption>Every frame of the measured repeats, pooled (ms).</caption>
<thead><tr><th>series</th><th>frames</th><th>p50</th><th>p90</th><th>p99</th><th>worst</th><th>over ${num(budgetMs)} ms</th></tr></thead>
<tbody>${rows.join('')}</tbody></table>`
}

export const writtenAt = (): string => new Date().toISOString().replace(/\.\d+Z$/, 'Z')
