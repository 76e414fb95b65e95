/** The run file tapir:perf_run writes and tapir:perf_compare reads (`<out>/<scenario>-<label>.json`). */

/** A metric's repeat-to-repeat range: the noise a change must exceed to count. */
export interface Spread {
  min: number
  max: number
  rangePct: number | null
}

export interface SeriesSummary {
  repeats: number
  refused: number
  ms: Record<string, number>
  spread: {ms: Record<string, Spread>}
}

export interface RunSummary {
  repeats: number
  refused: number
  frames: {count: number; painted: number; dropped: number; overBudget: number}
  perFrame: Record<string, number>
  ms: Record<string, number>
  spread: {perFrame: Record<string, Spread>; ms: Record<string, Spread>}
  timing?: SeriesSummary
}

export interface Thresholds {
  warn: number
  error: number
}

export interface RunFile {
  scenario: {name?: string; thresholds?: Thresholds; [key: string]: unknown}
  label: string
  variant?: string
  env: {target?: string; buildMode?: string; emulator?: boolean; [key: string]: unknown}
  summary: RunSummary
  insights: unknown[]
  repeats?: unknown[]
  [key: string]: unknown
}

export const DEFAULT_THRESHOLDS: Thresholds = {warn: 10, error: 25}
