import {blocksIn, isOverBudget, median, rankBy, type BlockTotal, type Gap} from './stats.js'
import {BUDGET_MS, ms2, slowerThreadMs, type FrameRecord, type PerfMode} from './types.js'

export type Severity = 'error' | 'warn' | 'info'

export interface Evidence {
  readonly metric: string
  readonly value: number
  /** Per painted frame (a share for frame rules); null where no frame denominator applies. */
  readonly perFrame: number | null
  readonly threshold: number
}

export interface Insight {
  readonly id: string
  readonly severity: Severity
  readonly title: string
  readonly summary: string
  readonly evidence: Evidence
  readonly estimatedSavingsMs?: number
  readonly nextStep: string
  /** The rows behind the insight, served by perf_insight. */
  readonly detail: Record<string, unknown>
}

export interface Coverage {
  readonly framesDrawn: number
  readonly framesSummarized: number
  readonly framesOutsideSession: number
  readonly complete: boolean
  readonly missing: readonly string[]
}

/** Everything the rules judge a closed session by. */
export interface SessionFacts {
  readonly token: string
  readonly mode: PerfMode
  readonly phases: boolean
  readonly frames: readonly FrameRecord[]
  readonly painted: number
  /** painted + dropped */
  readonly count: number
  readonly gaps: readonly Gap[]
  /** Empty in timing mode: nothing was profiled. */
  readonly blocks: readonly BlockTotal[]
  readonly coverage: Coverage
}

/** Share of frames past which the frame rules escalate from warn to error. */
export const ERROR_SHARE = 0.1
/** frameNumber step that counts as a drop. */
export const DROP_STEP = 2
export const BLOCK_SHARE = 0.3
export const BLOCK_MS_PER_FRAME = 1
/** Half the budget: a block costing more per frame than this is an error. */
export const BLOCK_ERROR_MS_PER_FRAME = 8.35
export const BLOCK_RUNS_PER_FRAME = 20
export const BLOCK_RUNS_OVER_MEDIAN = 10

const WORST_FRAMES = 5

type Draft = Omit<Insight, 'id'>
type Rule = (facts: SessionFacts, id: string) => Draft[]

const RULES: readonly Rule[] = [framesOverBudget, framesDropped, blockSelfMs, blockCountPerFrame, framesUnreported, sourcesMissing]

const SEVERITY_RANK: Readonly<Record<Severity, number>> = {error: 0, warn: 1, info: 2}

/** Runs every rule in order, numbering what fires I1, I2, ...; then ranks by severity and savings. */
export function insightsFor(facts: SessionFacts): Insight[] {
  const raised: Insight[] = []
  for (const rule of RULES) {
    // A rule can raise several insights (one per block); each takes the next id.
    for (const draft of rule(facts, `I${raised.length + 1}`)) raised.push({id: `I${raised.length + 1}`, ...draft})
  }
  return raised.sort(
    (a, b) =>
      SEVERITY_RANK[a.severity] - SEVERITY_RANK[b.severity] ||
      (b.estimatedSavingsMs ?? 0) - (a.estimatedSavingsMs ?? 0) ||
      Number(a.id.slice(1)) - Number(b.id.slice(1)),
  )
}

/** The report's view of an insight: no summary, no detail. */
export function publicInsight(insight: Insight): Record<string, unknown> {
  const {summary: _summary, detail: _detail, ...shown} = insight
  return shown
}

const drill = (id: string, what: string): string => `Run tapir_perf_insight with id=${id} for ${what}`

function frameRow(frame: FrameRecord, facts: SessionFacts): Record<string, unknown> {
  const blocks = facts.mode === 'timing' ? [] : rankBy(blocksIn(frame, facts.phases), (b) => b.selfMs).slice(0, WORST_FRAMES)
  return {
    frameNumber: frame.frameNumber,
    buildMs: ms2(frame.buildMs),
    rasterMs: ms2(frame.rasterMs),
    blocks: blocks.map((b) => ({name: b.name, selfMs: ms2(b.selfMs), count: b.count})),
  }
}

function framesOverBudget(facts: SessionFacts, id: string): Draft[] {
  const over = facts.frames.filter(isOverBudget)
  if (over.length === 0) return []
  const share = over.length / facts.painted
  const build = over.filter((f) => f.buildMs > BUDGET_MS).length
  const raster = over.filter((f) => f.rasterMs > BUDGET_MS).length
  const worst = [...over].sort((a, b) => slowerThreadMs(b) - slowerThreadMs(a) || a.frameNumber - b.frameNumber)
  const thread = build >= raster ? 'build (UI thread)' : 'raster thread'
  return [
    {
      severity: share > ERROR_SHARE ? 'error' : 'warn',
      title: `${over.length} of ${facts.painted} painted frames ran past the ${BUDGET_MS}ms budget`,
      summary:
        `${over.length} frame(s) took longer than ${BUDGET_MS}ms on their slower thread (${build} on build, ${raster} on raster); ` +
        `the worst, frame ${worst[0]!.frameNumber}, took ${ms2(slowerThreadMs(worst[0]!))}ms. Most of the overrun is on the ${thread}.`,
      evidence: {metric: 'frames.overBudget', value: over.length, perFrame: ms2(share), threshold: BUDGET_MS},
      estimatedSavingsMs: ms2(over.reduce((sum, f) => sum + slowerThreadMs(f) - BUDGET_MS, 0)),
      nextStep:
        facts.mode === 'timing'
          ? `${drill(id, 'the worst frames')}, then repeat the interaction in an attribution session to see which blocks they built.`
          : `${drill(id, 'the worst frames and the blocks each built')}; start with the block that owns most of the worst frame.`,
      detail: {
        budgetMs: BUDGET_MS,
        overBudgetBuild: build,
        overBudgetRaster: raster,
        worstFrames: worst.slice(0, WORST_FRAMES).map((f) => frameRow(f, facts)),
      },
    },
  ]
}

function framesDropped(facts: SessionFacts, id: string): Draft[] {
  const dropped = facts.gaps.reduce((sum, g) => sum + g.missing, 0)
  if (dropped === 0) return []
  const share = dropped / facts.count
  const first = facts.gaps[0]!
  return [
    {
      severity: share > ERROR_SHARE ? 'error' : 'warn',
      title: `${dropped} frame(s) dropped: frameNumber skipped ${facts.gaps.length} time(s)`,
      summary:
        `The engine never rasterised ${dropped} of ${facts.count} frames; the first gap follows frame ${first.after} ` +
        `(next delivered: ${first.next}). A frame that overruns its budget at the start of an animation makes the engine skip the vsyncs it ate.`,
      evidence: {metric: 'frames.dropped', value: dropped, perFrame: ms2(share), threshold: DROP_STEP},
      estimatedSavingsMs: ms2(dropped * BUDGET_MS),
      nextStep: `${drill(id, 'the gaps')}, then read the frame named in each gap's "after": its cost is what the skipped frames waited on.`,
      detail: {
        gaps: facts.gaps,
        framesBeforeGaps: facts.gaps
          .map((g) => facts.frames.find((f) => f.frameNumber === g.after))
          .filter((f): f is FrameRecord => f !== undefined)
          .map((f) => frameRow(f, facts)),
      },
    },
  ]
}

function heaviestFramesFor(facts: SessionFacts, name: string, key: 'selfMs' | 'count'): Record<string, unknown>[] {
  const rows = facts.frames.flatMap((frame) => {
    const block = blocksIn(frame, facts.phases).find((b) => b.name === name)
    return block === undefined ? [] : [{frame, block}]
  })
  rows.sort((a, b) => b.block[key] - a.block[key] || a.frame.frameNumber - b.frame.frameNumber)
  return rows.slice(0, WORST_FRAMES).map(({frame, block}) => ({
    frameNumber: frame.frameNumber,
    buildMs: ms2(frame.buildMs),
    rasterMs: ms2(frame.rasterMs),
    selfMs: ms2(block.selfMs),
    count: block.count,
  }))
}

function blockSelfMs(facts: SessionFacts, id: string): Draft[] {
  const totalSelf = facts.blocks.reduce((sum, b) => sum + b.selfMs, 0)
  if (totalSelf === 0) return []
  const drafts: Draft[] = []
  for (const block of rankBy(facts.blocks, (b) => b.selfMs)) {
    const share = block.selfMs / totalSelf
    const msPerFrame = block.selfMs / facts.painted
    if (share < BLOCK_SHARE || msPerFrame < BLOCK_MS_PER_FRAME) continue
    const nextId = `I${Number(id.slice(1)) + drafts.length}`
    drafts.push({
      severity: msPerFrame > BLOCK_ERROR_MS_PER_FRAME ? 'error' : 'warn',
      title: `${block.name} owns ${Math.round(share * 100)}% of all build self time (${ms2(msPerFrame)}ms per painted frame)`,
      summary:
        `${block.name} ran ${block.count} time(s) in ${block.frames} frame(s) for ${ms2(block.selfMs)}ms of exclusive time, ` +
        `${Math.round(share * 100)}% of the ${ms2(totalSelf)}ms every block spent.`,
      evidence: {metric: `blocks.${block.name}.selfMs`, value: ms2(block.selfMs), perFrame: ms2(msPerFrame), threshold: BLOCK_MS_PER_FRAME},
      estimatedSavingsMs: ms2(block.selfMs),
      nextStep: `${drill(nextId, 'the frames where it weighed most')}; then make ${block.name}'s build cheaper (cache what it computes, or build it once).`,
      detail: {
        block: {
          name: block.name,
          selfMs: ms2(block.selfMs),
          count: block.count,
          frames: block.frames,
          share: ms2(share),
          perFrame: ms2(msPerFrame),
        },
        totalSelfMs: ms2(totalSelf),
        frames: heaviestFramesFor(facts, block.name, 'selfMs'),
      },
    })
  }
  return drafts
}

function blockCountPerFrame(facts: SessionFacts, id: string): Draft[] {
  if (facts.blocks.length === 0) return []
  const medianCount = median(facts.blocks.map((b) => b.count))
  const drafts: Draft[] = []
  for (const block of rankBy(facts.blocks, (b) => b.count)) {
    const runsPerFrame = block.count / facts.painted
    if (runsPerFrame < BLOCK_RUNS_PER_FRAME || block.count < BLOCK_RUNS_OVER_MEDIAN * medianCount) continue
    const nextId = `I${Number(id.slice(1)) + drafts.length}`
    drafts.push({
      severity: 'warn',
      title: `${block.name} runs ${ms2(runsPerFrame)} times per painted frame (${ms2(block.count / Math.max(medianCount, 1))}x the median block)`,
      summary:
        `${block.name} ran ${block.count} times over ${facts.painted} painted frames; the median block ran ${medianCount} times. ` +
        'A widget built this often is usually rebuilt by an ancestor that did not need to rebuild it.',
      evidence: {metric: `blocks.${block.name}.count`, value: block.count, perFrame: ms2(runsPerFrame), threshold: BLOCK_RUNS_PER_FRAME},
      estimatedSavingsMs: ms2(block.selfMs * (1 - medianCount / block.count)),
      nextStep: `${drill(nextId, 'the frames that ran it most')}; then find the ancestor that rebuilds it and keep it const or cached.`,
      detail: {
        block: {
          name: block.name,
          selfMs: ms2(block.selfMs),
          count: block.count,
          frames: block.frames,
          perFrame: ms2(runsPerFrame),
          medianBlockCount: medianCount,
        },
        frames: heaviestFramesFor(facts, block.name, 'count'),
      },
    })
  }
  return drafts
}

function framesUnreported(facts: SessionFacts, id: string): Draft[] {
  const {framesDrawn, framesSummarized} = facts.coverage
  const unreported = framesDrawn - framesSummarized
  if (unreported <= 0) return []
  return [
    {
      severity: 'warn',
      title: `${unreported} drawn frame(s) were never reported`,
      summary: `The liveness counter saw ${framesDrawn} frames but only ${framesSummarized} frame records arrived inside the session.`,
      evidence: {
        metric: 'coverage.framesSummarized',
        value: unreported,
        perFrame: ms2(unreported / Math.max(framesDrawn, 1)),
        threshold: 0,
      },
      nextStep: `${drill(id, 'the coverage map')}; keep the app in front until perf_end returns.`,
      detail: {coverage: facts.coverage},
    },
  ]
}

const MISSING_EFFECT: Readonly<Record<string, string>> = {
  wind: 'no Wind perf resolver is registered, so counters.wind is null rather than zeros',
  blocks: 'profiling was on but no frame carried a block map, so blocksBySelf and blocksByCount are empty',
  blockSelfTime: 'blocks carried no self time, so blocksBySelf ranks by nothing',
}

function sourcesMissing(facts: SessionFacts, id: string): Draft[] {
  const {missing} = facts.coverage
  if (missing.length === 0) return []
  return [
    {
      severity: 'info',
      title: `Sources not read: ${missing.join(', ')}`,
      summary: `The report has no data from ${missing.join(', ')}; read those parts as unknown, not as zero.`,
      evidence: {metric: 'coverage.missing', value: missing.length, perFrame: null, threshold: 0},
      nextStep: `${drill(id, 'what each missing source leaves out')}.`,
      detail: {coverage: facts.coverage, missing: missing.map((source) => ({source, effect: MISSING_EFFECT[source] ?? 'not read'}))},
    },
  ]
}
