/** What the reports read from a run file. A run file may come from anywhere (perf_compare takes
 *  any path), so everything here is read defensively: a value of the wrong kind is left out. */
import {isJsonObject} from '../../shape.js'
import {frameRowsOf, type FrameRow} from '../frame-times.js'
import type {RunFile} from '../run-file.js'
import {median} from '../summarize.js'
import {numberOr} from './html.js'
import {metricWords} from './plain-words.js'

/** The frame budget at 60 Hz, when a report does not state its own. */
export const DEFAULT_BUDGET_MS = 16.7
/** Repeats, blocks and insights a report reads at most from one file. */
const MAX_REPEATS = 500
const MAX_BLOCKS = 1000
const MAX_INSIGHTS = 50

export const SERIES_LABELS = {
  attribution: 'attribution repeats (profiling on)',
  timing: 'timing repeats',
  semanticsOff: 'semantics off',
} as const

export interface RepeatView {
  series: string
  index: number
  refused: boolean
  reason?: string
  painted: number
  frames: FrameRow[]
  /** Why the run file has no frame times for this measured repeat. */
  framesMissing?: string
}

const text = (value: unknown): string | undefined => (typeof value === 'string' ? value : undefined)

export function repeatsOf(run: RunFile): RepeatView[] {
  const repeats = Array.isArray(run.repeats) ? run.repeats.slice(0, MAX_REPEATS) : []
  return repeats.filter(isJsonObject).map((repeat) => {
    const summary = isJsonObject(repeat.summary) ? repeat.summary : {}
    const frames = isJsonObject(summary.frames) ? summary.frames : {}
    const rows = frameRowsOf(repeat)
    const refused = repeat.refused === true
    return {
      series: text(repeat.series) ?? 'attribution',
      index: numberOr(repeat.index) ?? 0,
      refused,
      ...(refused ? {reason: text(repeat.reason) ?? 'refused'} : {}),
      painted: numberOr(frames.painted) ?? 0,
      frames: rows,
      ...(!refused && rows.length === 0
        ? {framesMissing: text(repeat.frameTimesMissing) ?? 'the run file keeps no frame times for it (written by an older tapir)'}
        : {}),
    }
  })
}

/** The budget the app reported (perf_end's summary.budgetMs), else 16.7 ms. */
export function budgetOf(run: RunFile): number {
  for (const repeat of Array.isArray(run.repeats) ? run.repeats.slice(0, MAX_REPEATS) : []) {
    const budget = isJsonObject(repeat) && isJsonObject(repeat.summary) ? numberOr(repeat.summary.budgetMs) : undefined
    if (budget !== undefined && budget > 0 && budget <= 1000) return budget
  }
  return DEFAULT_BUDGET_MS
}

/** The measured repeats of one series, and every frame they drew. */
export function seriesFrames(repeats: readonly RepeatView[], series: string): FrameRow[] {
  return repeats.filter((repeat) => repeat.series === series && !repeat.refused).flatMap((repeat) => repeat.frames)
}

export interface BlockView {
  name: string
  /** Median over the measured attribution repeats of the block's self time per painted frame. */
  selfMsPerFrame: number
  /** Median builds per painted frame. */
  countPerFrame: number
}

/** Every widget block of the measured attribution repeats: self ms and builds per painted frame,
 *  each the median over the repeats (a repeat without the block counts 0). */
export function blocksOf(run: RunFile): Map<string, BlockView> {
  const perRepeat: Array<Map<string, {self: number; count: number}>> = []
  for (const repeat of Array.isArray(run.repeats) ? run.repeats.slice(0, MAX_REPEATS) : []) {
    if (!isJsonObject(repeat) || repeat.refused === true || (repeat.series ?? 'attribution') !== 'attribution') continue
    const summary = isJsonObject(repeat.summary) ? repeat.summary : {}
    const painted = numberOr(isJsonObject(summary.frames) ? summary.frames.painted : undefined) ?? 0
    const blocks = new Map<string, {self: number; count: number}>()
    const entry = (name: string) => {
      const found = blocks.get(name)
      if (found) return found
      const added = {self: 0, count: 0}
      blocks.set(name, added)
      return added
    }
    for (const block of Array.isArray(summary.blocksBySelf) ? summary.blocksBySelf.slice(0, MAX_BLOCKS) : []) {
      const selfMs = isJsonObject(block) ? numberOr(block.selfMs) : undefined
      if (isJsonObject(block) && typeof block.name === 'string' && selfMs !== undefined && painted > 0)
        entry(block.name).self = selfMs / painted
    }
    for (const block of Array.isArray(summary.blocksByCount) ? summary.blocksByCount.slice(0, MAX_BLOCKS) : []) {
      const perFrame = isJsonObject(block) ? numberOr(block.perFrame) : undefined
      if (isJsonObject(block) && typeof block.name === 'string' && perFrame !== undefined) entry(block.name).count = perFrame
    }
    perRepeat.push(blocks)
  }
  const names = new Set(perRepeat.flatMap((blocks) => [...blocks.keys()]))
  const out = new Map<string, BlockView>()
  for (const name of names) {
    out.set(name, {
      name,
      selfMsPerFrame: median(perRepeat.map((blocks) => blocks.get(name)?.self ?? 0)),
      countPerFrame: median(perRepeat.map((blocks) => blocks.get(name)?.count ?? 0)),
    })
  }
  return out
}

export interface InsightView {
  id: string
  severity: string
  title: string
  evidence?: string
  /** The metric its evidence names (`frames.overBudget`), to say what to change. */
  metric?: string
  estimatedSavingsMs?: number
  nextStep?: string
}

/** The run's insights (its median repeat's), as far as they are readable. */
export function insightsOf(run: RunFile): InsightView[] {
  const list = Array.isArray(run.insights) ? run.insights.slice(0, MAX_INSIGHTS) : []
  return list.filter(isJsonObject).map((insight) => {
    const evidence = isJsonObject(insight.evidence) ? insight.evidence : undefined
    const savings = numberOr(insight.estimatedSavingsMs)
    return {
      id: text(insight.id) ?? '?',
      severity: text(insight.severity) ?? 'info',
      title: text(insight.title) ?? '',
      ...(evidence
        ? {
            evidence: [
              `${metricWords(text(evidence.metric) ?? 'metric')}: ${String(numberOr(evidence.value) ?? '–')}`,
              numberOr(evidence.perFrame) === undefined ? '' : `${numberOr(evidence.perFrame)} per frame`,
              numberOr(evidence.threshold) === undefined ? '' : `limit ${numberOr(evidence.threshold)}`,
            ]
              .filter(Boolean)
              .join(', '),
          }
        : {}),
      ...(evidence && text(evidence.metric) ? {metric: text(evidence.metric)} : {}),
      ...(savings === undefined ? {} : {estimatedSavingsMs: savings}),
      ...(text(insight.nextStep) ? {nextStep: text(insight.nextStep)} : {}),
    }
  })
}

/** p50/p90/p99/worst of a list of times. */
export function percentiles(values: readonly number[]): {p50: number; p90: number; p99: number; worst: number} | undefined {
  if (values.length === 0) return undefined
  const sorted = [...values].sort((x, y) => x - y)
  const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)]
  return {p50: at(0.5), p90: at(0.9), p99: at(0.99), worst: at(1)}
}
