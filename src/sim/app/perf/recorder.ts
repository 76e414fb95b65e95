import type {Frame, Mounted} from '../frame.js'
import {locationOf} from '../router.js'
import type {AppState} from '../state.js'
import {
  SHADER_COMPILE_MS,
  TRANSITION_RASTER_MS,
  blocksOf,
  buildMsOf,
  phaseBlocksOf,
  rasterMsOf,
  round3,
  semanticsMsOf,
  transitionBlock,
} from './costs.js'
import {BUDGET_MS, type BlockRun, type DrawOutcome, type FrameRecord, type RouteTransition} from './types.js'

/** Animation frames after the frame that builds a new page (login ↔ shell, a monitor's detail). */
const PAGE_TRANSITION_FRAMES = 5
/** Animation frames after the frame that builds or removes a dialog or menu. */
const POPUP_TRANSITION_FRAMES = 3
/** A scroll settles over this many frames, each rebuilding what moved. */
const SCROLL_FRAMES = 3
const VSYNC_US = Math.round(BUDGET_MS * 1000)
/** A scroll's fling sometimes takes one settle frame more, as vsync and input timing fall. */
const SCROLL_EXTRA_FRAME_SHARE = 0.3
/** How far the pipeline overhead and the raster base wander from frame to frame, in ms. */
const BUILD_NOISE_MS = 0.1
const RASTER_NOISE_MS = 0.15

export interface RecorderOptions {
  /** Seeds the noise: each run of main() (a boot) wanders its own deterministic way. */
  seed: number
  /** The perf regression knob (see REGRESSION_SPARK_BUILDS). */
  regression: boolean
}

/** What the previous draw left on screen, as far as frame costs are concerned. */
interface Drawn {
  /** Onstage widgets only: an offstage one is not built, so showing it again builds it. */
  readonly signatures: ReadonlyMap<string, string>
  readonly scrollOffsets: ReadonlyMap<string, number>
  readonly pageKey: string
  readonly popupKey: string
  readonly location: string
  readonly watched: Readonly<Record<string, string>>
}

/** One frame before it is numbered and placed on the clock. */
interface PlannedFrame {
  readonly blocks: readonly BlockRun[]
  readonly phaseBlocks: readonly BlockRun[]
  readonly buildMs: number
  readonly rasterMs: number
  /** Frame numbers the engine skips right after this one (a janky transition start). */
  readonly skipsAfter: number
}

/**
 * The engine's side of frame production: every time the model draws, works out from what
 * changed which frames the settle took and what each cost, numbers them (`FrameTiming.frameNumber`)
 * and advances the liveness counter once per frame rasterised.
 */
export class FrameRecorder {
  /** Frames rasterised since boot: the counter perf_end judges a session by. */
  liveness = 0
  private nextFrameNumber = 1
  private clockUs = 0
  private previous: Drawn | null = null
  /** Shader compilation is paid once per boot, by the first animated transition. */
  private shadersWarm = false
  /** The magic cache gauge: monitors loaded for the signed-in user. */
  cacheSize = 0

  constructor(private readonly options: RecorderOptions = {seed: 1, regression: false}) {}

  /** Deterministic noise in [-1, 1) for a frame, from the boot's seed. */
  private noise(frameNumber: number, salt: number): number {
    const hash = Math.imul(this.options.seed * 2654435761 + frameNumber * 40503 + salt * 97, 2246822519) >>> 0
    return ((hash ^ (hash >>> 15)) % 2000) / 1000 - 1
  }

  get nowUs(): number {
    return this.clockUs
  }

  record(frame: Frame, state: AppState, semanticsEnabled = true): DrawOutcome {
    const onstage = [...frame.byPath.values()].filter((m) => !m.offstage)
    const next = drawnOf(onstage, state)
    const previous = this.previous
    this.previous = next
    this.cacheSize = state.user === null ? 0 : state.monitors.length
    const rebuilt = previous === null ? onstage : onstage.filter((m) => previous.signatures.get(m.path) !== next.signatures.get(m.path))
    const plans = this.plan(previous, next, rebuilt, onstage.length, semanticsEnabled)
    const frames = plans.map((p) => this.place(p))
    const routeChanged = previous !== null && (previous.location !== next.location || previous.popupKey !== next.popupKey)
    const transition: RouteTransition | null = routeChanged
      ? {route: routeLabel(next, state), ms: round1(frames.reduce((sum, f) => sum + clockSlotsOf(f) * BUDGET_MS, 0))}
      : null
    return {frames, transition, notifies: previous === null ? [] : notifiesBetween(previous, next, routeChanged)}
  }

  private plan(previous: Drawn | null, next: Drawn, rebuilt: readonly Mounted[], painted: number, semantics: boolean): PlannedFrame[] {
    const built = buildFrame(rebuilt, painted, this.options.regression, semantics)
    if (previous === null || rebuilt.length === 0) return [built]
    const pageChanged = previous.pageKey !== next.pageKey
    if (pageChanged || previous.popupKey !== next.popupKey) {
      const popupOnly = !pageChanged
      const animation = Array.from({length: popupOnly ? POPUP_TRANSITION_FRAMES : PAGE_TRANSITION_FRAMES}, (_, i) =>
        animationFrame(painted, popupOnly, i === 0 && !this.shadersWarm),
      )
      this.shadersWarm = true
      // The transition's clock starts with its first frame: a start that overruns the budget
      // makes the engine skip the vsyncs it ate, and those frame numbers are never rasterised.
      return [{...built, skipsAfter: Math.max(0, slotsFor(slowest(built)) - 1)}, ...animation]
    }
    const scrolled = [...next.scrollOffsets].some(([path, offset]) => {
      const before = previous.scrollOffsets.get(path)
      return before !== undefined && before !== offset
    })
    if (scrolled) {
      const settle = SCROLL_FRAMES + ((this.noise(this.nextFrameNumber, 3) + 1) / 2 < SCROLL_EXTRA_FRAME_SHARE ? 1 : 0)
      return [...Array.from({length: settle}, () => built), quietFrame(painted)]
    }
    return [built, quietFrame(painted)]
  }

  private place(plan: PlannedFrame): FrameRecord {
    const record: FrameRecord = {
      frameNumber: this.nextFrameNumber,
      startUs: this.clockUs,
      buildMs: round3(plan.buildMs + BUILD_NOISE_MS * this.noise(this.nextFrameNumber, 1)),
      rasterMs: round3(plan.rasterMs + RASTER_NOISE_MS * this.noise(this.nextFrameNumber, 2)),
      blocks: plan.blocks,
      phaseBlocks: plan.phaseBlocks,
    }
    this.nextFrameNumber += 1 + plan.skipsAfter
    this.clockUs += clockSlotsOf(record) * VSYNC_US
    this.liveness++
    return record
  }
}

/** A frame that rebuilt widgets; with semantics on, the pipeline also updates their semantics nodes. */
function buildFrame(rebuilt: readonly Mounted[], painted: number, regression: boolean, semantics: boolean): PlannedFrame {
  const blocks = blocksOf(rebuilt, regression)
  const phaseBlocks = phaseBlocksOf(rebuilt.length, painted)
  const semanticsMs = semantics ? semanticsMsOf(rebuilt) : 0
  return {blocks, phaseBlocks, buildMs: round3(buildMsOf(blocks, phaseBlocks) + semanticsMs), rasterMs: rasterMsOf(painted), skipsAfter: 0}
}

/** Nothing dirty: the pipeline runs and the raster thread re-composites the same layers. */
function quietFrame(painted: number): PlannedFrame {
  return {blocks: [], phaseBlocks: [], buildMs: buildMsOf([], []), rasterMs: rasterMsOf(painted), skipsAfter: 0}
}

function animationFrame(painted: number, popup: boolean, compilesShaders: boolean): PlannedFrame {
  const blocks = [transitionBlock(popup)]
  return {
    blocks,
    phaseBlocks: [],
    buildMs: buildMsOf(blocks, []),
    rasterMs: rasterMsOf(painted, TRANSITION_RASTER_MS + (compilesShaders ? SHADER_COMPILE_MS : 0)),
    skipsAfter: 0,
  }
}

const slowest = (f: PlannedFrame): number => Math.max(f.buildMs, f.rasterMs)
/** Vsync intervals a frame occupies: one, or as many as its slower thread overran into. */
const slotsFor = (ms: number): number => Math.max(1, Math.ceil(ms / BUDGET_MS - 1e-9))
/** Where the next frame starts on the synthetic clock: after this one's build and raster both end, at a vsync. */
const clockSlotsOf = (f: FrameRecord): number => slotsFor(f.buildMs + f.rasterMs)
const round1 = (value: number): number => Math.round(value * 10) / 10

function drawnOf(onstage: readonly Mounted[], state: AppState): Drawn {
  const signatures = new Map<string, string>()
  const scrollOffsets = new Map<string, number>()
  for (const m of onstage) {
    signatures.set(m.path, signature(m))
    if (m.ui.scroll) scrollOffsets.set(m.path, m.ui.scroll.offset)
  }
  const {root} = state
  const pageKey = root.kind === 'login' ? `login#${root.instance}` : `shell#${root.shell.instance}/${root.shell.detail?.instance ?? '-'}`
  return {
    signatures,
    scrollOffsets,
    pageKey,
    popupKey: state.popups.map((p) => `${p.kind}#${p.instance}`).join(','),
    location: locationOf(state),
    watched: watchedState(state),
  }
}

/** A widget's own configuration: when it differs from the last frame's, the widget rebuilt. */
function signature(m: Mounted): string {
  const {ui} = m
  return JSON.stringify([
    ui.widget,
    ui.rect,
    ui.text,
    ui.key,
    ui.semantics,
    ui.scroll,
    ui.overflowing,
    ui.editable,
    ui.children.map((c) => c.id),
  ])
}

function routeLabel(drawn: Drawn, state: AppState): string {
  const top = state.popups.at(-1)
  return top === undefined ? drawn.location : `${drawn.location} (${top.kind})`
}

/** The controllers the app's state lives in, each with the part of the state it notifies about. */
function watchedState(state: AppState): Record<string, string> {
  return {
    AuthController: JSON.stringify([state.user, state.signInError, state.resetLinkSent]),
    MonitorsController: JSON.stringify([state.monitors, state.alertsEnabled]),
    SettingsController: JSON.stringify(state.settings),
    ...Object.fromEntries(Object.entries(state.fields).map(([field, text]) => [`TextEditingController(${field})`, text])),
    FocusManager: String(state.focusedField),
  }
}

function notifiesBetween(previous: Drawn, next: Drawn, routeChanged: boolean): string[] {
  const out = Object.keys(next.watched).filter((name) => previous.watched[name] !== next.watched[name])
  if (routeChanged) out.push('GoRouter')
  return out
}
