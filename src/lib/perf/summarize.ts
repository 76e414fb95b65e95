import {isJsonObject} from '../shape.js'
import type {PerfReport} from '../vm/tapir-answers.js'
import type {RunSummary, SeriesSummary, Spread} from './run-file.js'

/** One repeat as the run file keeps it: the full perf_end report plus where it came from. */
export type Repeat = PerfReport & {series: string; index: number}

const round2 = (value: number): number => Math.round(value * 100) / 100

export function median(values: readonly number[]): number {
  if (values.length === 0) return 0
  const sorted = [...values].sort((a, b) => a - b)
  const mid = Math.floor(sorted.length / 2)
  return sorted.length % 2 === 1 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2
}

/** Per-painted-frame counts of one report: `blocks.<W>`, `<source>.<counter>` and
 *  `<source>.<breakdown>.<row>`; gauges (bare numbers) are not per frame and stay out. */
export function perFrameMetrics(repeat: Repeat): Record<string, number> {
  const out: Record<string, number> = {}
  for (const block of repeat.summary?.blocksByCount ?? []) out[`blocks.${block.name}`] = block.perFrame
  const counters = repeat.counters ?? {}
  for (const source of ['wind', 'magic']) {
    const group = counters[source]
    if (typeof group !== 'object' || group === null) continue
    for (const [name, value] of Object.entries(group)) {
      if (Array.isArray(value)) {
        for (const row of value)
          if (Array.isArray(row) && typeof row[0] === 'string' && typeof row[2] === 'number') out[`${source}.${name}.${row[0]}`] = row[2]
      } else if (isJsonObject(value) && typeof value.perFrame === 'number') {
        out[`${source}.${name}`] = value.perFrame
      }
    }
  }
  return out
}

/** Frame-time percentiles of one report: `buildMs.p50`, ..., `rasterMs.worst`. */
export function msMetrics(repeat: Repeat): Record<string, number> {
  const out: Record<string, number> = {}
  for (const thread of ['buildMs', 'rasterMs'] as const) {
    const distribution = repeat.summary?.frames?.[thread]
    if (!distribution) continue
    for (const rank of ['p50', 'p90', 'p99', 'worst'] as const) out[`${thread}.${rank}`] = distribution[rank]
  }
  return out
}

/** The median of every metric over the repeats (absent in a repeat = 0) and its range. */
export function medianAndSpread(samples: ReadonlyArray<Record<string, number>>): {
  medians: Record<string, number>
  spread: Record<string, Spread>
} {
  const metrics = [...new Set(samples.flatMap((sample) => Object.keys(sample)))].sort()
  const medians: Record<string, number> = {}
  const spread: Record<string, Spread> = {}
  for (const metric of metrics) {
    const values = samples.map((sample) => sample[metric] ?? 0)
    const mid = round2(median(values))
    const min = Math.min(...values)
    const max = Math.max(...values)
    medians[metric] = mid
    spread[metric] = {min, max, rangePct: mid === 0 ? null : Math.round(((max - min) / mid) * 1000) / 10}
  }
  return {medians, spread}
}

const measured = (repeats: readonly Repeat[]): Repeat[] => repeats.filter((repeat) => repeat.refused !== true)

/** The measured repeat whose painted-frame count is the median (the lower of two middles). */
export function medianRepeat(repeats: readonly Repeat[]): Repeat | undefined {
  const sorted = measured(repeats).sort(
    (a, b) => (a.summary?.frames?.painted ?? 0) - (b.summary?.frames?.painted ?? 0) || a.index - b.index,
  )
  return sorted[Math.floor((sorted.length - 1) / 2)]
}

/** The attribution series' summary: medians of frames, per-frame counts and ms, with their ranges. */
export function summarizeAttribution(repeats: readonly Repeat[]): RunSummary {
  const kept = measured(repeats)
  const frames = (key: 'count' | 'painted' | 'dropped' | 'overBudget'): number =>
    round2(median(kept.map((repeat) => repeat.summary?.frames?.[key] ?? 0)))
  const perFrame = medianAndSpread(kept.map(perFrameMetrics))
  const ms = medianAndSpread(kept.map(msMetrics))
  return {
    repeats: kept.length,
    refused: repeats.length - kept.length,
    frames: {count: frames('count'), painted: frames('painted'), dropped: frames('dropped'), overBudget: frames('overBudget')},
    perFrame: perFrame.medians,
    ms: ms.medians,
    spread: {perFrame: perFrame.spread, ms: ms.spread},
  }
}

/** A timing series: only its milliseconds count (profiling is off, so they are the honest ones). */
export function summarizeTiming(repeats: readonly Repeat[]): SeriesSummary {
  const kept = measured(repeats)
  const ms = medianAndSpread(kept.map(msMetrics))
  return {repeats: kept.length, refused: repeats.length - kept.length, ms: ms.medians, spread: {ms: ms.spread}}
}
