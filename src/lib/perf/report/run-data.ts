/** What the reports read of a run file, read once where it enters a report: the checked run
 *  file, and its repeats and insights. Those two are kept as the app sent them (perf_compare takes
 *  any path), so each is read defensively: a value of the wrong kind is left out. */
import {fits, isJsonObject, number, object, string, type JsonObject, type Shape} from '../../shape.js'
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
  /** The budget the app reported (perf_end's summary.budgetMs). */
  budgetMs?: number
  /** Build self time of each widget block, and builds per painted frame. */
  blocksBySelf: Array<{name: string; selfMs: number}>
  blocksByCount: Array<{name: string; perFrame: number}>
}

const blockBySelf = object({name: string, selfMs: number})
const blockByCount = object({name: string, perFrame: number})

const text = (value: unknown): string | undefined => (typeof value === 'string' ? value : undefined)
/** The entries of `value` that fit `shape`, at most `max` of them read. */
const fitting = <T>(value: unknown, shape: Shape<T>, max: number): T[] =>
  Array.isArray(value) ? value.slice(0, max).filter((entry: unknown): entry is T => fits(shape, entry)) : []

function repeatView(repeat: JsonObject): RepeatView {
  const summary = isJsonObject(repeat.summary) ? repeat.summary : {}
  const frames = isJsonObject(summary.frames) ? summary.frames : {}
  const rows = frameRowsOf(repeat)
  const refused = repeat.refused === true
  const budgetMs = numberOr(summary.budgetMs)
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
    ...(budgetMs === undefined ? {} : {budgetMs}),
    blocksBySelf: fitting(summary.blocksBySelf, blockBySelf, MAX_BLOCKS),
    blocksByCount: fitting(summary.blocksByCount, blockByCount, MAX_BLOCKS),
  }
}

/** The budget the app reported, else 16.7 ms. */
function budgetOf(repeats: readonly RepeatView[]): number {
  for (const {budgetMs} of repeats) if (budgetMs !== undefined && budgetMs > 0 && budgetMs <= 1000) return budgetMs
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
function blocksOf(repeats: readonly RepeatView[]): Map<string, BlockView> {
  const perRepeat: Array<Map<string, {self: number; count: number}>> = []
  for (const repeat of repeats) {
    if (repeat.refused || repeat.series !== 'attribution') continue
    const blocks = new Map<string, {self: number; count: number}>()
    const entry = (name: string) => {
      const found = blocks.get(name)
      if (found) return found
      const added = {self: 0, count: 0}
      blocks.set(name, added)
      return added
    }
    if (repeat.painted > 0) for (const block of repeat.blocksBySelf) entry(block.name).self = block.selfMs / repeat.painted
    for (const block of repeat.blocksByCount) entry(block.name).count = block.perFrame
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

/** An insight (its median repeat's), as far as it is readable. */
function insightView(insight: JsonObject): InsightView {
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
}

/** A run as the reports read it: the checked run file, and its repeats, budget, blocks and
 *  insights, each read once. */
export interface RunView {
  run: RunFile
  repeats: RepeatView[]
  budgetMs: number
  blocks: Map<string, BlockView>
  insights: InsightView[]
}

export function runView(run: RunFile): RunView {
  const objects = (value: unknown[] | undefined, max: number) => (value ?? []).slice(0, max).filter(isJsonObject)
  const repeats = objects(run.repeats, MAX_REPEATS).map(repeatView)
  return {
    run,
    repeats,
    budgetMs: budgetOf(repeats),
    blocks: blocksOf(repeats),
    insights: objects(run.insights, MAX_INSIGHTS).map(insightView),
  }
}

/** p50/p90/p99/worst of a list of times. */
export function percentiles(values: readonly number[]): {p50: number; p90: number; p99: number; worst: number} | undefined {
  if (values.length === 0) return undefined
  const sorted = [...values].sort((x, y) => x - y)
  const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)]
  return {p50: at(0.5), p90: at(0.9), p99: at(0.99), worst: at(1)}
}
