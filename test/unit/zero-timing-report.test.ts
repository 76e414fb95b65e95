import {describe, expect, it} from 'vitest'
import {closeTimingSession, distribution, gapsOf, type FrameTime, type SessionWindow} from '../../src/lib/zero/timing-report.js'

const window = (overrides: Partial<SessionWindow> = {}): SessionWindow => ({
  token: 'perf-1',
  startUs: 0,
  endUs: 1_000_000,
  livenessBaseline: 10,
  livenessFinal: 20,
  framesOutsideSession: 0,
  env: {platform: 'android'},
  missing: {},
  ...overrides,
})

const frame = (number: number, buildMs: number, rasterMs: number): FrameTime => ({number, startUs: number * 16_667, buildMs, rasterMs})

/** Frames 11..20, quick except where given. */
function frames(slow: Record<number, [number, number]> = {}, skip: number[] = []): FrameTime[] {
  return Array.from({length: 10}, (_, i) => 11 + i)
    .filter((number) => !skip.includes(number))
    .map((number) => frame(number, ...(slow[number] ?? [2, 3])))
}

describe('the timing report built from per-frame times', () => {
  it('nearest-rank percentiles and the worst, two decimals', () => {
    expect(distribution([])).toEqual({p50: 0, p90: 0, p99: 0, worst: 0})
    const values = Array.from({length: 100}, (_, i) => i + 1.004)
    expect(distribution(values)).toEqual({p50: 50, p90: 90, p99: 99, worst: 100})
    expect(distribution([3.333, 1, 2])).toEqual({p50: 2, p90: 3.33, p99: 3.33, worst: 3.33})
  })

  it('dropped frames are frameNumber steps of 2 or more', () => {
    expect(gapsOf([frame(1, 1, 1), frame(2, 1, 1), frame(5, 1, 1), frame(7, 1, 1)])).toEqual([
      {after: 2, next: 5, missing: 2},
      {after: 5, next: 7, missing: 1},
    ])
  })

  it('summarises frames against the 16.7 ms budget, per thread, in the timing shape', () => {
    const closing = closeTimingSession(frames({13: [30, 4], 17: [3, 20]}), window())
    expect(closing.refused).toBe(false)
    expect(closing.report).toMatchObject({
      sessionToken: 'perf-1',
      refused: false,
      mode: 'timing',
      counters: null,
      coverage: {framesDrawn: 10, framesSummarized: 10, framesOutsideSession: 0, complete: true, missing: []},
      summary: {
        durationMs: 1000,
        budgetMs: 16.7,
        frames: {count: 10, painted: 10, dropped: 0, overBudget: 2, overBudgetBuild: 1, overBudgetRaster: 1},
      },
      omitted: {},
    })
    const {summary} = closing.report as {summary: {frames: {buildMs: unknown; rasterMs: unknown}}}
    expect(summary.frames.buildMs).toEqual({p50: 2, p90: 3, p99: 30, worst: 30})
    expect(summary.frames.rasterMs).toEqual({p50: 3, p90: 4, p99: 20, worst: 20})
    // Two of ten frames over: a 0.2 share is past the 0.1 error share.
    expect(closing.report.insights).toEqual([
      {
        id: 'I1',
        severity: 'error',
        title: '2 of 10 painted frames ran past the 16.7ms budget',
        evidence: {metric: 'frames.overBudget', value: 2, perFrame: 0.2, threshold: 16.7},
        estimatedSavingsMs: 16.6,
        nextStep: expect.stringContaining('tapir_perf_insight'),
      },
    ])
    if (closing.refused) throw new Error('refused')
    expect(closing.insights[0]!.detail).toMatchObject({
      overBudgetBuild: 1,
      overBudgetRaster: 1,
      worstFrames: [
        {frameNumber: 13, buildMs: 30, rasterMs: 4, blocks: []},
        {frameNumber: 17, buildMs: 3, rasterMs: 20, blocks: []},
      ],
    })
  })

  it('gaps are dropped frames, and the missing sources an info insight; ids come before the sort', () => {
    const closing = closeTimingSession(frames({}, [14, 15]), window({missing: {liveness: 'no liveness counter'}}))
    if (closing.refused) throw new Error('refused')
    expect(closing.report.summary).toMatchObject({frames: {count: 10, painted: 8, dropped: 2}})
    expect(closing.insights.map(({id, severity, evidence}) => [id, severity, evidence.metric])).toEqual([
      ['I1', 'error', 'frames.dropped'],
      ['I2', 'info', 'coverage.missing'],
    ])
    expect(closing.insights[0]!.detail).toMatchObject({gaps: [{after: 13, next: 16, missing: 2}], framesBeforeGaps: [{frameNumber: 13}]})
    expect(closing.insights[1]!.detail).toEqual({
      coverage: expect.objectContaining({complete: true, missing: ['liveness']}),
      missing: [{source: 'liveness', effect: 'no liveness counter'}],
    })
  })

  it('frame numbers the window neither holds, drops nor leaves outside are unreported', () => {
    const closing = closeTimingSession(frames(), window({livenessFinal: 24, framesOutsideSession: 1}))
    if (closing.refused) throw new Error('refused')
    expect(closing.report.coverage).toMatchObject({framesDrawn: 14, complete: false})
    expect(closing.insights).toEqual([
      expect.objectContaining({
        id: 'I1',
        severity: 'warn',
        title: '3 drawn frame(s) were never reported',
        evidence: expect.objectContaining({value: 3}),
      }),
    ])
  })

  it('refuses with no metrics when the frame number advanced by 1 or less, or no frame started in the window', () => {
    expect(closeTimingSession([frame(11, 2, 2)], window({livenessFinal: 11}))).toEqual({
      refused: true,
      report: {
        sessionToken: 'perf-1',
        refused: true,
        mode: 'timing',
        coverage: {framesDrawn: 1, livenessBaseline: 10, livenessFinal: 11, complete: false},
        reason: expect.stringMatching(
          /^The engine drew 1 frame\(s\) during the session \(frame number 10 -> 11\), so there is nothing to measure/,
        ),
      },
    })
    const outside = closeTimingSession([], window({livenessFinal: 14, framesOutsideSession: 4}))
    expect(outside.refused).toBe(true)
    expect(outside.report.reason).toMatch(/^The engine reported 4 frame\(s\) after the session's baseline but 0 started inside it/)
  })

  it('every rule at once: ranked by severity, then by the time each would save', () => {
    const closing = closeTimingSession(frames({12: [40, 1]}, [15]), window({missing: {liveness: 'x'}, livenessFinal: 25}))
    if (closing.refused) throw new Error('refused')
    expect(closing.insights.map(({id, severity, estimatedSavingsMs}) => [id, severity, estimatedSavingsMs])).toEqual([
      ['I1', 'error', 23.3],
      ['I2', 'warn', 16.7],
      ['I3', 'warn', undefined],
      ['I4', 'info', undefined],
    ])
    expect(closing.report.omitted).toEqual({})
  })
})
