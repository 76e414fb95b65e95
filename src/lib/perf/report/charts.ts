/** The report's charts, as inline SVG: frame-time histograms, a repeat's frame timeline, and
 *  paired bars for widget blocks. Every mark carries its numbers in data-* attributes and a
 *  <title> (the browser's tooltip), so the page needs no script. */
import type {FrameRow} from '../frame-times.js'
import {esc, num} from './html.js'
import {linear, niceStep, tickLabel, ticks} from './scale.js'

export interface Series {
  /** Names the series' colour (class s-<key>) and its marks (data-series). */
  key: string
  label: string
  values: readonly number[]
}

export interface Panel {
  thread: 'build' | 'raster'
  title: string
  series: readonly Series[]
}

/** About how many buckets a histogram cuts its range into. */
const BUCKETS = 24
/** Past this multiple of the range most frames fall in, the slowest frames share one last bucket. */
const OVERFLOW_FACTOR = 1.5

const r1 = (value: number): number => Math.round(value * 10) / 10

/** The bucket width, the top of the evenly cut range, and whether there is an overflow bucket. */
export function bucketsFor(values: readonly number[], budgetMs: number): {step: number; count: number; overflow: boolean} {
  const sorted = [...values].sort((x, y) => x - y)
  const max = sorted.at(-1) ?? 0
  const p99 = sorted[Math.floor(0.99 * (sorted.length - 1))] ?? 0
  const body = Math.max(budgetMs * 1.25, p99 * 1.1)
  const overflow = max > body * OVERFLOW_FACTOR
  const span = overflow ? body : Math.max(body, max)
  const step = niceStep(span, BUCKETS)
  // Every value below the top lands in a bucket: the top is past the largest one kept.
  const count = overflow ? Math.ceil(span / step) : Math.floor(max / step) + 1
  return {step, count: Math.max(count, Math.ceil(budgetMs / step) + 1), overflow}
}

/** The bucket a value falls in: [i·step, (i+1)·step), exactly as the marks state their edges. */
function bucketOf(value: number, step: number, count: number, overflow: boolean): number {
  if (overflow && value >= count * step) return count
  let index = Math.floor(value / step)
  while (index > 0 && value < index * step) index--
  while (value >= (index + 1) * step) index++
  return index
}

function legend(series: readonly Series[]): string {
  return `<div class="legend">${series.map((s) => `<span><i class="s-${esc(s.key)}"></i>${esc(s.label)}</span>`).join('')}</div>`
}

/** One histogram per thread, sharing their buckets: the share of each series' frames per bucket,
 *  with the frame budget as a vertical line. */
export function histograms(panels: readonly Panel[], budgetMs: number): string {
  const all = panels.flatMap((panel) => panel.series.flatMap((s) => s.values))
  const {step, count, overflow} = bucketsFor(all, budgetMs)
  const figures = panels.map((panel) => histogram(panel, budgetMs, step, count, overflow))
  return `${legend(panels[0]?.series ?? [])}<div class="charts">${figures.join('')}</div>`
}

function histogram(panel: Panel, budgetMs: number, step: number, count: number, overflow: boolean): string {
  const width = 438
  const height = 250
  const m = {left: 46, right: 12, top: 22, bottom: 38}
  const slots = count + (overflow ? 1 : 0)
  const x = linear([0, slots * step], [m.left, width - m.right])
  const bars = panel.series.map((s) => {
    const counts = new Array<number>(slots).fill(0)
    for (const value of s.values) counts[bucketOf(value, step, count, overflow)]++
    return {s, counts, shares: counts.map((n) => (n / Math.max(s.values.length, 1)) * 100)}
  })
  const yTicks = ticks(Math.max(1, ...bars.flatMap((bar) => bar.shares)), 5)
  const y = linear([0, yTicks.top], [height - m.bottom, m.top])
  const slot = x(step) - x(0)
  const barWidth = Math.max(0.5, (slot - 2) / Math.max(panel.series.length, 1))
  const marks: string[] = []
  bars.forEach(({s, counts, shares}, index) => {
    counts.forEach((n, bucket) => {
      if (n === 0) return
      const from = bucket * step
      const to = bucket === count ? Infinity : (bucket + 1) * step
      const share = shares[bucket] ?? 0
      const range = to === Infinity ? `≥ ${tickLabel(from)} ms` : `${tickLabel(from)}–${tickLabel(to)} ms`
      marks.push(
        `<rect class="mark s-${esc(s.key)}" data-chart="histogram" data-thread="${panel.thread}" data-series="${esc(s.key)}" data-from="${from}" data-to="${to === Infinity ? 'inf' : to}" data-count="${n}" x="${r1(x(from) + 1 + index * barWidth)}" y="${r1(y(share))}" width="${r1(barWidth)}" height="${r1(y(0) - y(share))}"><title>${esc(s.label)}, ${esc(panel.thread)} ${range}: ${n} frame(s), ${num(share)}%</title></rect>`,
      )
    })
  })
  const xStep = niceStep(count * step, 6)
  const xTicks: string[] = []
  for (let value = 0; value <= count * step + 1e-9; value += xStep)
    xTicks.push(
      `<line x1="${r1(x(value))}" x2="${r1(x(value))}" y1="${height - m.bottom}" y2="${height - m.bottom + 4}"/><text x="${r1(x(value))}" y="${height - m.bottom + 16}" text-anchor="middle">${tickLabel(value)}</text>`,
    )
  if (overflow)
    xTicks.push(
      `<text x="${r1(x(count * step + step / 2))}" y="${height - m.bottom + 16}" text-anchor="middle">≥${tickLabel(count * step)}</text>`,
    )
  const grid = yTicks.values
    .map(
      (value) =>
        `<line class="grid" x1="${m.left}" x2="${width - m.right}" y1="${r1(y(value))}" y2="${r1(y(value))}"/><text x="${m.left - 6}" y="${r1(y(value) + 4)}" text-anchor="end">${tickLabel(value)}%</text>`,
    )
    .join('')
  const bx = r1(x(budgetMs))
  return `<figure><figcaption>${esc(panel.title)}</figcaption>
<svg class="chart histogram" data-thread="${panel.thread}" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}" role="img" aria-label="${esc(panel.title)}">
<g class="axis">${grid}${xTicks.join('')}<text x="${(m.left + width - m.right) / 2}" y="${height - 4}" text-anchor="middle">ms per frame</text></g>
${marks.join('\n')}
<line class="budget" data-ms="${budgetMs}" x1="${bx}" x2="${bx}" y1="${m.top - 8}" y2="${height - m.bottom}"/>${
    bx > width - 110
      ? `<text class="budget-label" x="${bx - 4}" y="${m.top - 1}" text-anchor="end">${num(budgetMs)} ms budget</text>`
      : `<text class="budget-label" x="${bx + 4}" y="${m.top - 1}">${num(budgetMs)} ms budget</text>`
  }
</svg></figure>`
}

/** One repeat's frames in the order drawn: per frame a build bar and a raster bar, a bar past
 *  the budget in red, and the budget as a horizontal line. `topMs` is shared
 *  by the repeats of a page, so their bars compare. */
export function timeline(rows: readonly FrameRow[], budgetMs: number, topMs: number, title: string, repeat: string): string {
  const width = 940
  const height = 170
  const m = {left: 46, right: 12, top: 12, bottom: 30}
  const yTicks = ticks(topMs, 4)
  const y = linear([0, yTicks.top], [height - m.bottom, m.top])
  const x = linear([0, Math.max(rows.length, 1)], [m.left, width - m.right])
  const slot = x(1) - x(0)
  const bar = Math.max(0.3, (slot - Math.min(2, slot * 0.2)) / 2)
  const marks = rows.map(([frameNumber, startMs, buildMs, rasterMs], index) => {
    const over = buildMs > budgetMs || rasterMs > budgetMs
    const tip = `Frame ${frameNumber} at ${num(startMs)} ms: build ${num(buildMs)} ms, raster ${num(rasterMs)} ms${over ? ' (over budget)' : ''}`
    const rect = (thread: 'build' | 'raster', ms: number, offset: number) =>
      `<rect class="mark s-${thread}${ms > budgetMs ? ' over' : ''}" data-chart="timeline" data-repeat="${esc(repeat)}" data-thread="${thread}" data-frame="${frameNumber}" data-ms="${ms}" x="${r1(x(index) + offset)}" y="${r1(y(ms))}" width="${r1(bar)}" height="${r1(y(0) - y(ms))}"><title>${tip}</title></rect>`
    return rect('build', buildMs, 0) + rect('raster', rasterMs, bar)
  })
  const grid = yTicks.values
    .map(
      (value) =>
        `<line class="grid" x1="${m.left}" x2="${width - m.right}" y1="${r1(y(value))}" y2="${r1(y(value))}"/><text x="${m.left - 6}" y="${r1(y(value) + 4)}" text-anchor="end">${tickLabel(value)}</text>`,
    )
    .join('')
  const every = Math.max(1, niceStep(rows.length, 10))
  const xTicks: string[] = []
  for (let index = 0; index < rows.length; index += every)
    xTicks.push(`<text x="${r1(x(index) + slot / 2)}" y="${height - m.bottom + 14}" text-anchor="middle">${index + 1}</text>`)
  const by = r1(y(budgetMs))
  return `<figure><figcaption>${esc(title)}</figcaption>
<svg class="chart timeline" data-repeat="${esc(repeat)}" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}" role="img" aria-label="${esc(title)}">
<g class="axis">${grid}${xTicks.join('')}<text x="${(m.left + width - m.right) / 2}" y="${height - 3}" text-anchor="middle">frame (in the order drawn); ms</text></g>
${marks.join('\n')}
<line class="budget" data-ms="${budgetMs}" x1="${m.left}" x2="${width - m.right}" y1="${by}" y2="${by}"/><text class="budget-label" x="${width - m.right - 4}" y="${by - 4}" text-anchor="end">${num(budgetMs)} ms budget</text>
</svg></figure>`
}

export interface BarRow {
  name: string
  values: readonly number[]
}

/** Longest widget name drawn beside its bars (the full name is in the tooltip and the table). */
const NAME_CHARS = 40

/** Horizontal bars per widget block, one per series (A and B, or one run), all on one scale. */
export function blockBars(rows: readonly BarRow[], series: ReadonlyArray<{key: string; label: string}>, unit: string): string {
  const width = 940
  const label = 260
  const barHeight = 9
  const rowHeight = series.length * barHeight + 10
  const height = rows.length * rowHeight + 26
  const max = Math.max(0, ...rows.flatMap((row) => row.values))
  const scale = ticks(max > 0 ? max : 1, 5)
  const x = linear([0, scale.top], [label, width - 60])
  const body = rows.map((row, index) => {
    const top = 6 + index * rowHeight
    const shown = row.name.length > NAME_CHARS ? `${row.name.slice(0, NAME_CHARS)}…` : row.name
    const bars = series.map((s, at) => {
      const value = row.values[at] ?? 0
      return `<rect class="mark s-${esc(s.key)}" data-chart="blocks" data-series="${esc(s.key)}" x="${label}" y="${top + at * barHeight}" width="${r1(Math.max(x(value) - label, value > 0 ? 1 : 0))}" height="${barHeight - 1}"><title>${esc(row.name)}, ${esc(s.label)}: ${num(value)} ${esc(unit)}</title></rect><text x="${r1(Math.max(x(value), label) + 4)}" y="${top + at * barHeight + barHeight - 1}">${num(value)}</text>`
    })
    return `<g class="block"><text class="name" x="${label - 8}" y="${top + rowHeight / 2}" text-anchor="end"><title>${esc(row.name)}</title>${esc(shown)}</text>${bars.join('')}</g>`
  })
  const axis = scale.values
    .map((value) => `<text x="${r1(x(value))}" y="${height - 6}" text-anchor="middle">${tickLabel(value)}</text>`)
    .join('')
  return `${legend(series.map((s) => ({...s, values: []})))}<figure><svg class="chart blocks" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}" role="img" aria-label="${esc(unit)}">
${body.join('\n')}
<g class="axis">${axis}</g>
</svg><figcaption>${esc(unit)}</figcaption></figure>`
}
