import {insightsFor, publicInsight, type Coverage, type Insight, type SessionFacts} from './insights.js'
import type {OpenSession} from './session.js'
import {blockTotals, distribution, gapsOf, perFrame, rankBy, type BlockTotal} from './stats.js'
import {BUDGET_MS, ms2, type FrameRecord} from './types.js'

/** How many entries each ranked list keeps unless `full` lifts the cuts. */
const TOP_BLOCKS = 10
const TOP_TRANSITIONS = 10
const TOP_INSIGHTS = 6
const TOP_BREAKDOWN = 3

/** Where the app runs, read in the app when the session closes. */
export interface PerfEnv {
  readonly platform: string
  readonly isWeb: boolean
  readonly renderer: string
  readonly semanticsEnabled: boolean
}

/** The liveness counter must advance by more than this for the engine to have rendered anything. */
const MIN_LIVENESS_ADVANCE = 1

export interface SessionEnd {
  readonly livenessFinal: number
  readonly endUs: number
  readonly cacheSize: number
  readonly full: boolean
  readonly env: PerfEnv
}

export interface Closing {
  readonly report: Record<string, unknown>
  readonly refused: boolean
  readonly insights: readonly Insight[]
}

/** perf_end's answer for a session: the refusal when the engine drew (almost) nothing, else the bounded report. */
export function closeSession(session: OpenSession, end: SessionEnd): Closing {
  const framesDrawn = end.livenessFinal - session.livenessBaseline
  if (framesDrawn <= MIN_LIVENESS_ADVANCE) {
    return {
      refused: true,
      insights: [],
      report: {
        sessionToken: session.token,
        refused: true,
        mode: session.mode,
        coverage: {framesDrawn, livenessBaseline: session.livenessBaseline, livenessFinal: end.livenessFinal, complete: false},
        reason:
          `The engine drew ${framesDrawn} frame(s) during the session (liveness ${session.livenessBaseline} -> ${end.livenessFinal}), ` +
          'so there is nothing to measure: the app is hidden, minimised or paused, or the interaction drew nothing. ' +
          'No metrics are reported, since an empty report would read as fast. Bring the app to the front and run the session again.',
      },
    }
  }
  const facts = factsOf(session, framesDrawn)
  const insights = insightsFor(facts)
  const omitted: Record<string, number> = {}
  const cut = <T>(key: string, items: readonly T[], keep: number): T[] => {
    const kept = end.full ? [...items] : items.slice(0, keep)
    omitted[key] = items.length - kept.length
    return kept
  }
  const summary: Record<string, unknown> = {
    durationMs: ms2((end.endUs - session.startUs) / 1000),
    budgetMs: BUDGET_MS,
    frames: frameSummary(facts),
  }
  let counters: Record<string, unknown> | null = null
  if (session.mode === 'attribution') {
    summary.blocksBySelf = cut(
      'blocksBySelf',
      rankBy(facts.blocks, (b) => b.selfMs),
      TOP_BLOCKS,
    ).map((b) => ({
      name: b.name,
      selfMs: ms2(b.selfMs),
      frames: b.frames,
    }))
    summary.blocksByCount = cut(
      'blocksByCount',
      rankBy(facts.blocks, (b) => b.count),
      TOP_BLOCKS,
    ).map((b) => ({
      name: b.name,
      count: b.count,
      perFrame: perFrame(b.count, facts.painted),
    }))
    summary.routeTransitions = cut('routeTransitions', session.transitions, TOP_TRANSITIONS)
    counters = {columns: ['name', 'count', 'perFrame'], wind: null, magic: magicCounters(session, facts.painted, end.cacheSize, cut)}
  }
  const shown = cut('insights', insights, TOP_INSIGHTS).map(publicInsight)
  return {
    refused: false,
    insights,
    report: {
      sessionToken: session.token,
      refused: false,
      mode: session.mode,
      env: {
        platform: end.env.platform,
        isWeb: end.env.isWeb,
        buildMode: 'debug',
        renderer: end.env.renderer,
        semanticsEnabled: end.env.semanticsEnabled,
        phases: session.phases,
      },
      coverage: facts.coverage,
      summary,
      counters,
      insights: shown,
      omitted,
    },
  }
}

function factsOf(session: OpenSession, framesDrawn: number): SessionFacts {
  const frames = session.frames
  const gaps = gapsOf(frames)
  const dropped = gaps.reduce((sum, g) => sum + g.missing, 0)
  const attribution = session.mode === 'attribution'
  const blocks: BlockTotal[] = attribution ? blockTotals(frames, session.phases) : []
  const missing: string[] = []
  if (attribution) {
    missing.push('wind')
    if (!frames.some((f) => f.blocks.length > 0)) missing.push('blocks')
  }
  const coverage: Coverage = {
    framesDrawn,
    framesSummarized: frames.length,
    framesOutsideSession: 0,
    complete: frames.length >= framesDrawn,
    missing,
  }
  return {
    token: session.token,
    mode: session.mode,
    phases: session.phases,
    frames,
    painted: frames.length,
    count: frames.length + dropped,
    gaps,
    blocks,
    coverage,
  }
}

function frameSummary(facts: SessionFacts): Record<string, unknown> {
  const {frames} = facts
  const overBuild = (f: FrameRecord): boolean => f.buildMs > BUDGET_MS
  const overRaster = (f: FrameRecord): boolean => f.rasterMs > BUDGET_MS
  return {
    count: facts.count,
    painted: facts.painted,
    dropped: facts.count - facts.painted,
    overBudget: frames.filter((f) => overBuild(f) || overRaster(f)).length,
    overBudgetBuild: frames.filter(overBuild).length,
    overBudgetRaster: frames.filter(overRaster).length,
    buildMs: distribution(frames.map((f) => f.buildMs)),
    rasterMs: distribution(frames.map((f) => f.rasterMs)),
  }
}

type Cut = <T>(key: string, items: readonly T[], keep: number) => T[]

/** The app's controllers: notifications as a breakdown, route changes as a scalar, the cache as a gauge. */
function magicCounters(session: OpenSession, painted: number, cacheSize: number, cut: Cut): Record<string, unknown> {
  const notifies = [...session.notifies.entries()].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]))
  return {
    controllerNotifies: cut('magic.controllerNotifies', notifies, TOP_BREAKDOWN).map(([name, count]) => [
      name,
      count,
      perFrame(count, painted),
    ]),
    routeChanges: {count: session.transitions.length, perFrame: perFrame(session.transitions.length, painted)},
    cacheSize,
  }
}
