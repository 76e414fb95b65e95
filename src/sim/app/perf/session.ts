import type {Insight} from './insights.js'
import type {DrawOutcome, FrameRecord, PerfMode, RouteTransition} from './types.js'

/** A session between perf_begin and perf_end: the frame buffer and counters it zeroed and refills. */
export class OpenSession {
  readonly frames: FrameRecord[] = []
  readonly transitions: RouteTransition[] = []
  /** Controller notifications by controller name. */
  readonly notifies = new Map<string, number>()

  constructor(
    readonly token: string,
    readonly mode: PerfMode,
    readonly phases: boolean,
    readonly livenessBaseline: number,
    readonly startUs: number,
  ) {}

  absorb(outcome: DrawOutcome): void {
    this.frames.push(...outcome.frames)
    if (outcome.transition !== null) this.transitions.push(outcome.transition)
    for (const name of outcome.notifies) this.notifies.set(name, (this.notifies.get(name) ?? 0) + 1)
  }
}

/** The most recent closed session: what perf_insight and perf_trace read. */
export interface ClosedSession {
  readonly token: string
  readonly mode: PerfMode
  readonly phases: boolean
  readonly refused: boolean
  /** Where the session ran (`linux`, `web`), for the trace's metadata. */
  readonly platform: string
  readonly frames: readonly FrameRecord[]
  /** Every insight the rules raised, including those the report's cut left out. */
  readonly insights: readonly Insight[]
}
