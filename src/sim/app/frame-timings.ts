import type {FrameRecord} from './perf/types.js'

/**
 * The engine's frame timings and the framework's `Flutter.Frame` events, as a debug build has them.
 *
 * - The engine (flutter/flutter engine/src/flutter/shell/common/shell.cc `Shell::OnFrameRasterized`)
 *   keeps each rasterised frame's `FrameTiming` and reports them in batches: the first frame at
 *   once, then when 100 are waiting, or `kBatchTimeInMilliseconds` (100 ms outside release) after
 *   the first frame of a batch was rasterised.
 * - Its timestamps are on the Dart timeline clock: engine runtime/dart_vm_initializer.cc
 *   `DartVMInitializer::Initialize` sets `fml::TimePoint::SetClockSource(DartTimelineTicksSinceEpoch)`
 *   (`Dart_TimelineGetTicks`), the clock the VM's `getVMTimelineMicros` reads.
 * - The framework (packages/flutter/lib/src/scheduler/binding.dart `SchedulerBinding.initInstances`)
 *   registers, when `!kReleaseMode`, a timings callback that posts one `Flutter.Frame` per timing
 *   (`_profileFramePostEvent`): `number`, `startTime` (buildStart), `elapsed` (totalSpan),
 *   `build`, `raster`, `vsyncOverhead`, all in microseconds (dart:ui FrameTiming's getters).
 *
 * The sim's frames come from the FrameRecorder, which lays a draw's frames on its own vsync
 * clock; here they are placed on the timeline clock from the moment of the draw on.
 */

/** One frame's phases on the timeline clock, in microseconds (dart:ui `FramePhase`). */
export interface FrameTiming {
  readonly frameNumber: number
  readonly vsyncStart: number
  readonly buildStart: number
  readonly buildFinish: number
  readonly rasterStart: number
  readonly rasterFinish: number
}

/** `kBatchTimeInMilliseconds` in a debug or profile engine. */
export const BATCH_MS = 100
/** Reported at once when this many are waiting. */
export const BATCH_FRAMES = 100
/** The vsync interval at 60 Hz. */
const VSYNC_US = 16_667
/** How long the sim's UI thread takes to start a frame after its vsync. */
const VSYNC_OVERHEAD_US = 120

/** The `Flutter.Frame` event data of one timing (scheduler/binding.dart `_profileFramePostEvent`). */
export function flutterFrameData(timing: FrameTiming): Record<string, number> {
  return {
    number: timing.frameNumber,
    startTime: timing.buildStart,
    elapsed: timing.rasterFinish - timing.vsyncStart,
    build: timing.buildFinish - timing.buildStart,
    raster: timing.rasterFinish - timing.rasterStart,
    vsyncOverhead: timing.buildStart - timing.vsyncStart,
  }
}

export interface TimerHost {
  /** Runs `run` after `ms`, without holding the process open. */
  later(ms: number, run: () => void): void
}

const realTimers: TimerHost = {
  later(ms, run) {
    setTimeout(run, Math.max(0, ms)).unref()
  },
}

export class FrameTimings {
  private unreported: FrameTiming[] = []
  private firstFrameRasterized = false
  private reportScheduled = false
  /** The engine's frame numbers run on across hot restarts; a boot's recorder counts from 1. */
  private numberBase = 0
  private lastNumber = 0
  /** Where the next draw's first frame may start: the first vsync after the last one placed. */
  private nextFreeUs = 0

  constructor(
    /** The timeline clock (µs). */
    private readonly clock: () => number,
    /** The framework's timings callback: here, the Flutter.Frame posts. */
    private readonly report: (timings: readonly FrameTiming[]) => void,
    private readonly timers: TimerHost = realTimers,
  ) {}

  /** A hot restart runs main() again in the same engine: its frame numbers go on. */
  restarted(): void {
    this.numberBase = this.lastNumber
  }

  /** The frames one draw took, each rasterised in turn from now on. */
  drawn(frames: readonly FrameRecord[]): void {
    const [first] = frames
    if (first === undefined) return
    const now = this.clock()
    const base = Math.max(now, this.nextFreeUs)
    for (const frame of frames) {
      const vsyncStart = base + (frame.startUs - first.startUs)
      const buildStart = vsyncStart + VSYNC_OVERHEAD_US
      const buildFinish = buildStart + Math.round(frame.buildMs * 1000)
      const rasterFinish = buildFinish + Math.round(frame.rasterMs * 1000)
      const timing: FrameTiming = {
        frameNumber: this.numberBase + frame.frameNumber,
        vsyncStart,
        buildStart,
        buildFinish,
        rasterStart: buildFinish,
        rasterFinish,
      }
      this.lastNumber = Math.max(this.lastNumber, timing.frameNumber)
      // The next draw starts on a vsync after this frame's raster ends.
      this.nextFreeUs = Math.max(this.nextFreeUs, vsyncStart + Math.ceil((rasterFinish - vsyncStart) / VSYNC_US) * VSYNC_US)
      this.timers.later((rasterFinish - now) / 1000, () => this.rasterized(timing))
    }
  }

  /** Shell::OnFrameRasterized: the first frame at once, then batches. */
  private rasterized(timing: FrameTiming): void {
    this.unreported.push(timing)
    if (!this.firstFrameRasterized || this.unreported.length >= BATCH_FRAMES) {
      this.firstFrameRasterized = true
      this.flush()
    } else if (!this.reportScheduled) {
      this.reportScheduled = true
      // The engine's delayed task counts from the rasterisation, however late this runs.
      this.timers.later((timing.rasterFinish - this.clock()) / 1000 + BATCH_MS, () => {
        this.reportScheduled = false
        if (this.unreported.length > 0) this.flush()
      })
    }
  }

  private flush(): void {
    const timings = this.unreported
    this.unreported = []
    this.report(timings)
  }
}
