import type {AppSource} from '../app-contract.js'
import {Behaviour} from './behaviour.js'
import {Diagnostics} from './diagnostics.js'
import {mountFrame, type Frame} from './frame.js'
import {DEFAULT_VIEW, right, type View} from './geometry.js'
import {NodeIds} from './node-ids.js'
import {PerfMonitor} from './perf/monitor.js'
import {RefRegistry} from './refs.js'
import {buildApp} from './screens/app.js'
import {tickerRunning} from './sheet-entrance.js'
import {initialState, type AppState, type SeedData} from './state.js'

export type Lifecycle = 'resumed' | 'hidden' | 'paused' | 'detached'

/** One run of the app's `main()`: its state, the last drawn frame and everything TapirPlugin keeps. */
export class AppModel {
  state!: AppState
  on!: Behaviour
  diagnostics!: Diagnostics
  refs!: RefRegistry
  frame!: Frame
  bootId!: string
  /** Frame recording and perf sessions (statics of TapirPlugin: a hot restart clears them). */
  perf!: PerfMonitor
  /** The last unfiltered snapshot text, which `snapshot: "diff"` compares against. */
  baseline: string | null = null
  lifecycle: Lifecycle = 'resumed'
  /** The embedder's window: it outlives a hot restart, as the browser tab or the desktop window does. */
  view: View = DEFAULT_VIEW
  /** close_app ran: SystemNavigator.pop() asked the embedder to end the app. */
  closed = false
  /** Frames drawn by this process, across restarts: what a web page follows. */
  framesDrawn = 0
  /** The code the widgets are built from; a hot reload swaps it and keeps the state. */
  source: AppSource = {}
  private readonly frameListeners = new Set<() => void>()
  private lastGroupMicros = 0
  private objects = 0
  private ids!: NodeIds
  private reportedOverflows!: Set<string>
  private boots = 0

  constructor(
    readonly now: () => number = Date.now,
    private readonly seed: SeedData = {},
    /** The perf regression knob: the sparkline rebuilds its bars twice per build. */
    private readonly perfRegression = false,
  ) {
    this.boot()
  }

  /** `main()`: fresh state, fresh statics (ref counters, buffers, baseline), a new boot id, the warm-up frame. */
  boot(): void {
    this.boots++
    this.state = initialState(this.seed)
    this.diagnostics = new Diagnostics(this.now)
    this.on = new Behaviour(this.state, this.diagnostics)
    this.refs = new RefRegistry()
    this.ids = new NodeIds()
    this.reportedOverflows = new Set()
    this.perf = new PerfMonitor({seed: this.boots, regression: this.perfRegression})
    this.baseline = null
    this.closed = false
    this.bootId = `${this.now().toString(36)}-${this.boots}`
    this.draw()
  }

  /** `snapshot-<microsecondsSinceEpoch>`, strictly increasing. */
  nextGroupId(): string {
    this.lastGroupMicros = Math.max(this.now() * 1000, this.lastGroupMicros + 1)
    return `snapshot-${this.lastGroupMicros}`
  }

  /** A fresh ring id for an object an evaluate hands out. */
  nextObjectId(): string {
    return `objects/${++this.objects}`
  }

  get producesFrames(): boolean {
    return this.lifecycle === 'resumed'
  }

  /** Waits for the next frame: while the engine draws none, the tree stays the last one drawn. */
  pump(): void {
    if (this.producesFrames) this.draw()
  }

  /** Hot reload: \`ext.flutter.reassemble\` builds every widget again from the new source; the state stays. */
  reassemble(source: AppSource): void {
    this.source = source
    this.draw()
  }

  /** The embedder reports a new window size, pixel ratio or input kind: the app lays out again. */
  resize(view: View): void {
    this.view = view
    this.pump()
  }

  /** An animation is in flight: its Ticker has the engine draw a frame on every vsync until it stops. */
  get animating(): boolean {
    return tickerRunning(this.state)
  }

  /**
   * The time between two extension calls. An idle app draws nothing in it; while a Ticker runs
   * the engine keeps drawing on its own, and the model stands for that gap with exactly one frame
   * (none while the lifecycle lets no frame be drawn).
   */
  betweenCalls(): void {
    if (this.animating) this.pump()
  }

  private draw(): void {
    this.state.clock++
    this.frame = mountFrame(buildApp({state: this.state, on: this.on, view: this.view, source: this.source}), this.ids)
    this.diagnostics.framesDrawn++
    this.perf.frameDrawn(this.frame, this.state)
    this.reportOverflows()
    this.framesDrawn++
    for (const listener of this.frameListeners) listener()
  }

  /** Calls `listener` after every frame drawn from now on; answers how to stop. */
  onFrame(listener: () => void): () => void {
    this.frameListeners.add(listener)
    return () => this.frameListeners.delete(listener)
  }

  /** Debug-mode RenderFlex: reports its overflow once, the first time it lays out overflowing. */
  private reportOverflows(): void {
    for (const m of this.frame.byPath.values()) {
      if (!m.ui.overflowing || m.offstage || this.reportedOverflows.has(m.path)) continue
      this.reportedOverflows.add(m.path)
      const overflow = Math.max(...m.ui.children.map((c) => right(c.rect))) - right(m.ui.rect)
      this.diagnostics.recordError({
        type: 'overflow',
        message: `A RenderFlex overflowed by ${overflow} pixels on the right.\nThe relevant error-causing widget was:\n  ${m.ui.widget}`,
        stackHead: [
          '#0      RenderFlex.performLayout (package:flutter/src/rendering/flex.dart)',
          '#1      RenderObject.layout (package:flutter/src/rendering/object.dart)',
          '#2      RenderBox.layout (package:flutter/src/rendering/box.dart)',
        ].join('\n'),
        library: 'rendering library',
      })
    }
  }
}
