/** The data the simulated engine keeps about drawn frames, and what a perf session holds. */

/** The frame budget at 60 Hz, in milliseconds. */
export const BUDGET_MS = 16.7

/** One widget type's builds inside one frame: self (exclusive) time and how many times it ran. */
export interface BlockRun {
  readonly name: string
  readonly selfMs: number
  readonly count: number
}

/** What `FrameTiming` plus the build profiler deliver for one frame the engine rasterised. */
export interface FrameRecord {
  readonly frameNumber: number
  /** Vsync start on the synthetic frame clock, in microseconds since boot. */
  readonly startUs: number
  readonly buildMs: number
  readonly rasterMs: number
  /** Build profiling spans by widget type. */
  readonly blocks: readonly BlockRun[]
  /** Layout and paint spans, reported only by a session opened with `phases`. */
  readonly phaseBlocks: readonly BlockRun[]
}

/** A change of the route on screen: where it went and the frame time it took to settle. */
export interface RouteTransition {
  readonly route: string
  readonly ms: number
}

export type PerfMode = 'attribution' | 'timing'

export const PERF_MODES: readonly PerfMode[] = ['attribution', 'timing']

/** What one draw of the model contributes to an open session. */
export interface DrawOutcome {
  readonly frames: readonly FrameRecord[]
  readonly transition: RouteTransition | null
  /** Controller notifications the state change caused (the magic counters' breakdown). */
  readonly notifies: readonly string[]
}

export const slowerThreadMs = (f: FrameRecord): number => Math.max(f.buildMs, f.rasterMs)

/** Milliseconds as reports print them: two decimals. */
export const ms2 = (value: number): number => Math.round(value * 100) / 100
