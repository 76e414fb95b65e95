import type {AppSource, DeveloperEvent} from '../app-contract.js'
import {timelineMicros} from '../timeline-clock.js'
import {Behaviour} from './behaviour.js'
import {Diagnostics} from './diagnostics.js'
import {flutterFrameData, FrameTimings} from './frame-timings.js'
import {mountFrame, type Frame} from './frame.js'
import {DEFAULT_VIEW, right, type View} from './geometry.js'
import {NodeIds} from './node-ids.js'
import {PerfMonitor} from './perf/monitor.js'
import {PointerArena} from './pointer-arena.js'
import {RefRegistry} from './refs.js'
import {locationOf} from './router.js'
import {buildApp} from './screens/app.js'
import {tickerRunning} from './sheet-entrance.js'
import {initialState, type AppState, type SeedData} from './state.js'

export type Lifecycle = 'resumed' | 'hidden' | 'paused' | 'detached'

/** How the app was built: for the web (`kIsWeb`) or a desktop, and whether tapir may force frames. */
export interface Build {
  /** A Flutter web build in a browser tab (DWDS), not a desktop app. */
  readonly web: boolean
  /** `--dart-define=TAPIR_FORCE_FRAMES` (default true): a hidden or paused app is woken at a verb's entry. */
  readonly forceFrames: boolean
  /** The tapir package is in the app (TapirPlugin holds a semantics handle from install); false
   *  for a debug app with none. */
  readonly tapirPackage: boolean
}

export const DESKTOP_BUILD: Build = {web: false, forceFrames: true, tapirPackage: true}

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
  /** What the embedder reports: the window (or the browser tab) shown, hidden, paused or detached. */
  lifecycle: Lifecycle = 'resumed'
  /** The embedder's window: it outlives a hot restart, as the browser tab or the desktop window does. */
  view: View = DEFAULT_VIEW
  /** close_app ran: SystemNavigator.pop() asked the embedder to end the app. */
  closed = false
  /** Frames drawn by this process, across restarts: what a web page follows. */
  framesDrawn = 0
  /** The code the widgets are built from; a hot reload swaps it and keeps the state. */
  source: AppSource = {}
  /** TapirPlugin holds a semantics handle for the whole process; `semantics_hold` may release it in a perf session. */
  semanticsHandleHeld = true
  /** Handles others took with `SemanticsBinding.ensureSemantics()` (an evaluate, the accessibility
   *  inspector), not yet disposed. */
  semanticsHandles = 0
  /** What the gesture arena makes of pointer events sent through `GestureBinding.handlePointerEvent`. */
  readonly arena: PointerArena = new PointerArena(this)
  /** The engine's frame timings, posted as `Flutter.Frame` events (a debug build's framework does). */
  private readonly timings = new FrameTimings(timelineMicros, (timings) => {
    for (const timing of timings) this.emit({kind: 'post', extensionKind: 'Flutter.Frame', data: flutterFrameData(timing)})
  })
  private readonly frameListeners = new Set<() => void>()
  private readonly developerListeners = new Set<(event: DeveloperEvent) => void>()
  /** The Router location the last frame showed, for the framework's navigation events. */
  private shownLocation: string | null = null
  private lastGroupMicros = 0
  private ids!: NodeIds
  private reportedOverflows!: Set<string>
  private boots = 0
  /** Verbs in flight that woke the app: while any runs, frames are drawn whatever the embedder says. */
  private wakes = 0

  constructor(
    readonly now: () => number = Date.now,
    private readonly seed: SeedData = {},
    /** The perf regression knob: the sparkline rebuilds its bars twice per build. */
    private readonly perfRegression = false,
    readonly build: Build = DESKTOP_BUILD,
  ) {
    this.boot()
  }

  /** `main()`: fresh state, fresh statics (ref counters, buffers, baseline), a new boot id, the warm-up frame. */
  boot(): void {
    this.boots++
    this.timings.restarted()
    this.state = initialState(this.seed)
    this.diagnostics = new Diagnostics(this.now, (event) => this.emit(event))
    this.shownLocation = null
    this.on = new Behaviour(this.state, this.diagnostics)
    this.refs = new RefRegistry()
    this.ids = new NodeIds()
    this.reportedOverflows = new Set()
    this.perf = new PerfMonitor({seed: this.boots, regression: this.perfRegression})
    this.baseline = null
    this.closed = false
    this.semanticsHandleHeld = this.build.tapirPackage
    this.semanticsHandles = 0
    this.arena.reset()
    this.bootId = `${this.now().toString(36)}-${this.boots}`
    this.draw()
  }

  /** `snapshot-<microsecondsSinceEpoch>`, strictly increasing. */
  nextGroupId(): string {
    this.lastGroupMicros = Math.max(this.now() * 1000, this.lastGroupMicros + 1)
    return `snapshot-${this.lastGroupMicros}`
  }

  /**
   * Whether the platform keeps semantics on by itself. A web engine turns semantics on with the
   * first semantics tree it receives and never back off, and with tapir's handle held from
   * install, every web build has sent one by its first frame. (An assistive technology would hold
   * them on a desktop; none runs here.)
   */
  get platformHoldsSemantics(): boolean {
    return this.build.web
  }

  /** `SemanticsBinding.semanticsEnabled`: the framework builds the tree while any handle holds it. */
  get semanticsEnabled(): boolean {
    return this.semanticsHandleHeld || this.semanticsHandles > 0 || this.platformHoldsSemantics
  }

  /** What perf reports say about where the app runs. */
  get perfEnv(): {platform: string; isWeb: boolean; renderer: string; semanticsEnabled: boolean} {
    return {
      platform: this.build.web ? 'web' : 'linux',
      isWeb: this.build.web,
      renderer: this.build.web ? 'canvaskit' : 'unknown',
      semanticsEnabled: this.semanticsEnabled,
    }
  }

  get producesFrames(): boolean {
    return this.lifecycle === 'resumed' || this.wakes > 0
  }

  /**
   * Tapir's wake at a verb's entry: a hidden or paused desktop window is made to draw (a forced
   * frame first, so the verb reads a fresh tree) until `sleep`. Answers whether it had to. A
   * detached app, a build with the opt-out, and a browser tab (Chrome withholds animation frames
   * from a hidden tab, whatever the app asks) are not woken.
   */
  wake(): boolean {
    if (this.producesFrames || !this.build.forceFrames || this.build.web) return false
    if (this.lifecycle !== 'hidden' && this.lifecycle !== 'paused') return false
    this.wakes++
    this.draw()
    return true
  }

  /** The end of a verb that woke the app: the embedder's lifecycle holds again. */
  sleep(): void {
    this.wakes = Math.max(0, this.wakes - 1)
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
    this.timings.drawn(this.perf.frameDrawn(this.frame, this.state, this.semanticsEnabled))
    this.reportOverflows()
    this.framesDrawn++
    this.postFrameEvents()
    for (const listener of this.frameListeners) listener()
  }

  /** What the framework posts on the Extension stream after a frame in a debug build: the first
   *  frame of a run, and each route change. */
  private postFrameEvents(): void {
    const location = locationOf(this.state)
    if (location === this.shownLocation) return
    const first = this.shownLocation === null
    this.shownLocation = location
    if (first) this.emit({kind: 'post', extensionKind: 'Flutter.FirstFrame', data: {}})
    else this.emit({kind: 'post', extensionKind: 'Flutter.Navigation', data: {route: {description: location, settings: {name: location}}}})
  }

  /** Calls `listener` with everything the app logs, posts or prints from now on; answers how to stop. */
  onDeveloperEvent(listener: (event: DeveloperEvent) => void): () => void {
    this.developerListeners.add(listener)
    return () => this.developerListeners.delete(listener)
  }

  private emit(event: DeveloperEvent): void {
    for (const listener of this.developerListeners) listener(event)
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
