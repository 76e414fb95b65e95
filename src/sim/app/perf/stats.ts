import {BUDGET_MS, ms2, slowerThreadMs, type BlockRun, type FrameRecord} from './types.js'

/** One block summed over a session. */
export interface BlockTotal {
  readonly name: string
  readonly selfMs: number
  readonly count: number
  /** Frames in which it ran at least once. */
  readonly frames: number
}

/** A `frameNumber` step of 2 or more between consecutive rasterised frames. */
export interface Gap {
  readonly after: number
  readonly next: number
  readonly missing: number
}

export interface Distribution {
  readonly p50: number
  readonly p90: number
  readonly p99: number
  readonly worst: number
}

/** The blocks a session reports for a frame: builds, plus layout and paint when it profiles phases. */
export function blocksIn(frame: FrameRecord, phases: boolean): readonly BlockRun[] {
  return phases ? [...frame.blocks, ...frame.phaseBlocks] : frame.blocks
}

export function blockTotals(frames: readonly FrameRecord[], phases: boolean): BlockTotal[] {
  const totals = new Map<string, {selfMs: number; count: number; frames: number}>()
  for (const frame of frames) {
    for (const block of blocksIn(frame, phases)) {
      const total = totals.get(block.name) ?? {selfMs: 0, count: 0, frames: 0}
      total.selfMs += block.selfMs
      total.count += block.count
      total.frames++
      totals.set(block.name, total)
    }
  }
  return [...totals.entries()].map(([name, t]) => ({name, selfMs: Math.round(t.selfMs * 1000) / 1000, count: t.count, frames: t.frames}))
}

export function gapsOf(frames: readonly FrameRecord[]): Gap[] {
  const gaps: Gap[] = []
  for (let i = 1; i < frames.length; i++) {
    const after = frames[i - 1]!.frameNumber
    const next = frames[i]!.frameNumber
    if (next - after >= 2) gaps.push({after, next, missing: next - after - 1})
  }
  return gaps
}

/** Nearest-rank percentiles. */
export function distribution(values: readonly number[]): Distribution {
  if (values.length === 0) return {p50: 0, p90: 0, p99: 0, worst: 0}
  const sorted = [...values].sort((a, b) => a - b)
  const rank = (p: number): number => ms2(sorted[Math.max(0, Math.ceil(p * sorted.length) - 1)]!)
  return {p50: rank(0.5), p90: rank(0.9), p99: rank(0.99), worst: ms2(sorted.at(-1)!)}
}

export function median(values: readonly number[]): number {
  if (values.length === 0) return 0
  const sorted = [...values].sort((a, b) => a - b)
  const mid = Math.floor(sorted.length / 2)
  return sorted.length % 2 === 1 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2
}

export const isOverBudget = (frame: FrameRecord): boolean => slowerThreadMs(frame) > BUDGET_MS

/** Ranks by a key, highest first; ties by name so the order never depends on insertion. */
export function rankBy<T extends {readonly name: string}>(items: readonly T[], key: (item: T) => number): T[] {
  return [...items].sort((a, b) => key(b) - key(a) || a.name.localeCompare(b.name))
}

/** Count per painted frame, two decimals. */
export const perFrame = (value: number, painted: number): number => (painted === 0 ? 0 : ms2(value / painted))
