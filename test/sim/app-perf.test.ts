import {describe, expect, it} from 'vitest'
import {createMonitorsApp, type MonitorsOptions} from '../../src/sim/app/index.js'
import type {SimApp} from '../../src/sim/app-contract.js'
import {failureWithCode, quiet, signedInApp} from './app-helpers.js'

interface Insight {
  id: string
  severity: 'error' | 'warn' | 'info'
  title: string
  evidence: {metric: string; value: number; perFrame: number | null; threshold: number}
  estimatedSavingsMs?: number
  nextStep: string
}

/** On /login with both fields filled, ready to sign in (e4 is the Sign in button). */
async function readyToSignIn(options: MonitorsOptions = {}): Promise<SimApp> {
  const app = createMonitorsApp(options)
  await app.call('snap', {})
  await app.call('fill', {ref: 'e2', text: 'ann@example.com', ...quiet})
  await app.call('fill', {ref: 'e3', text: 'hunter2', ...quiet})
  return app
}

/** The scenario the suite measures: sign in, then open /settings. */
async function signInAndOpenSettings(app: SimApp, begin: Record<string, string> = {}): Promise<Record<string, unknown>> {
  await app.call('perf_begin', begin)
  await app.call('tap', {ref: 'e4', ...quiet})
  await app.call('navigate', {route: '/settings', ...quiet})
  return app.call('perf_end', {})
}

const SEVERITY = {error: 0, warn: 1, info: 2}

describe('perf_begin', () => {
  it('opens a session with its token, flags and the liveness baseline', async () => {
    const app = await readyToSignIn()
    const begun = await app.call('perf_begin', {})
    expect(begun).toEqual({
      sessionToken: 'perf-1',
      mode: 'attribution',
      phases: false,
      livenessBaseline: expect.any(Number),
      restartedPreviousSession: false,
    })
    expect(begun.livenessBaseline).toBeGreaterThan(0)
    expect(await app.call('perf_begin', {mode: 'timing'})).toMatchObject({
      sessionToken: 'perf-2',
      mode: 'timing',
      restartedPreviousSession: true,
    })
  })

  it('restarts an open session: frames drawn before the restart are not in the report', async () => {
    const app = await readyToSignIn()
    await app.call('perf_begin', {})
    await app.call('tap', {ref: 'e4', ...quiet})
    const restarted = await app.call('perf_begin', {})
    expect(restarted).toMatchObject({sessionToken: 'perf-2', restartedPreviousSession: true})
    await app.call('navigate', {route: '/settings', ...quiet})
    const report = await app.call('perf_end', {})
    expect(report).toMatchObject({sessionToken: 'perf-2', refused: false, summary: {frames: {painted: 2, dropped: 0}}})
    expect((report.summary as {routeTransitions: unknown[]}).routeTransitions).toEqual([{route: '/settings', ms: expect.any(Number)}])
  })

  it('refuses an unknown mode and phases with timing as invalidParams, opening nothing', async () => {
    const app = await readyToSignIn()
    const badMode = await failureWithCode(app.call('perf_begin', {mode: 'fast'}))
    expect(badMode).toMatchObject({code: -32602, envelope: {type: 'unexpected', suggestions: []}})
    expect(badMode.message).toContain('"fast"')
    const phases = await failureWithCode(app.call('perf_begin', {mode: 'timing', phases: 'true'}))
    expect(phases).toMatchObject({code: -32602, envelope: {type: 'unexpected'}})
    expect(phases.message).toContain('phases')
    expect((await failureWithCode(app.call('perf_end', {}))).message).toContain('perf_begin')
    expect(await app.call('perf_begin', {mode: 'timing', phases: 'false'})).toMatchObject({
      sessionToken: 'perf-1',
      mode: 'timing',
      phases: false,
    })
  })
})

describe('perf_end', () => {
  it('without a begin is a typed error naming perf_begin', async () => {
    const app = createMonitorsApp()
    const error = await failureWithCode(app.call('perf_end', {}))
    expect(error).toMatchObject({code: -32000, envelope: {type: 'not_found'}})
    expect(error.message).toContain('perf_begin')
  })

  it('reports sign-in + /settings: over-budget frames, the dropped frame of the sign-in transition, blocks and counters', async () => {
    const app = await readyToSignIn()
    const report = await signInAndOpenSettings(app)
    expect(report).toMatchObject({
      sessionToken: 'perf-1',
      refused: false,
      mode: 'attribution',
      env: {platform: 'linux', isWeb: false, buildMode: 'debug', renderer: 'unknown', semanticsEnabled: true, phases: false},
      coverage: {framesDrawn: 9, framesSummarized: 9, framesOutsideSession: 0, complete: true, missing: ['wind']},
      counters: {columns: ['name', 'count', 'perFrame'], wind: null},
    })
    const summary = report.summary as Record<string, any>
    expect(Object.keys(summary)).toEqual(['durationMs', 'budgetMs', 'frames', 'blocksBySelf', 'blocksByCount', 'routeTransitions'])
    expect(summary.budgetMs).toBe(16.7)
    expect(summary.durationMs).toBeGreaterThan(0)
    expect(summary.frames).toMatchObject({count: 10, painted: 9, dropped: 1, overBudget: 3, overBudgetBuild: 2, overBudgetRaster: 1})
    expect(summary.frames.buildMs.worst).toBeGreaterThan(24)
    expect(summary.frames.buildMs.p50).toBeLessThan(16.7)
    expect(summary.frames.rasterMs.worst).toBeGreaterThan(16.7)
    expect(summary.blocksBySelf[0]).toEqual({name: 'RegionDropdown', selfMs: 24, frames: 1})
    expect(summary.blocksBySelf).toHaveLength(10)
    expect(summary.blocksByCount[0]).toEqual({name: 'SparkBar', count: 480, perFrame: 53.33})
    expect(summary.blocksByCount).toContainEqual({name: 'MonitorRow', count: 20, perFrame: 2.22})
    expect(summary.routeTransitions.map((t: {route: string}) => t.route)).toEqual(['/monitors', '/settings'])
    const magic = (report.counters as {magic: Record<string, any>}).magic
    expect(magic.routeChanges).toEqual({count: 2, perFrame: 0.22})
    expect(magic.cacheSize).toBe(20)
    expect(magic.controllerNotifies[0]).toEqual(['GoRouter', 2, 0.22])
    expect(report.omitted).toMatchObject({
      blocksBySelf: expect.any(Number),
      blocksByCount: expect.any(Number),
      routeTransitions: 0,
      insights: 0,
    })
    expect(JSON.stringify(report).length).toBeLessThan(6 * 1024)
  })

  it('ranks insights by severity then savings, ids assigned before the sort, with the thresholds in their evidence', async () => {
    const app = await readyToSignIn()
    const insights = (await signInAndOpenSettings(app)).insights as Insight[]
    expect(insights.map((i) => i.id)).toEqual(['I1', 'I3', 'I2', 'I4', 'I5'])
    for (let i = 1; i < insights.length; i++) {
      const [a, b] = [insights[i - 1]!, insights[i]!]
      expect(
        SEVERITY[a.severity] < SEVERITY[b.severity] ||
          (a.severity === b.severity && (a.estimatedSavingsMs ?? 0) >= (b.estimatedSavingsMs ?? 0)),
      ).toBe(true)
    }
    const byId = Object.fromEntries(insights.map((i) => [i.id, i]))
    expect(byId.I1).toMatchObject({severity: 'error', evidence: {metric: 'frames.overBudget', value: 3, perFrame: 0.33, threshold: 16.7}})
    expect(byId.I2).toMatchObject({
      severity: 'warn',
      evidence: {metric: 'frames.dropped', value: 1, perFrame: 0.1, threshold: 2},
      estimatedSavingsMs: 16.7,
    })
    expect(byId.I3).toMatchObject({
      severity: 'warn',
      evidence: {metric: 'blocks.RegionDropdown.selfMs', value: 24, perFrame: 2.67, threshold: 1},
      estimatedSavingsMs: 24,
    })
    expect(byId.I4).toMatchObject({
      severity: 'warn',
      evidence: {metric: 'blocks.SparkBar.count', value: 480, perFrame: 53.33, threshold: 20},
    })
    expect(byId.I5).toMatchObject({severity: 'info', evidence: {metric: 'coverage.missing', value: 1, perFrame: null, threshold: 0}})
    expect(byId.I5).not.toHaveProperty('estimatedSavingsMs')
    for (const insight of insights) {
      expect(Object.keys(insight).sort()).toEqual(
        ['id', 'severity', 'title', 'evidence', 'nextStep', ...('estimatedSavingsMs' in insight ? ['estimatedSavingsMs'] : [])].sort(),
      )
      expect(insight.nextStep).toContain(`id=${insight.id}`)
    }
  })

  it('makes a block costing more than 8.35ms per painted frame an error', async () => {
    const app = await signedInApp()
    await app.call('perf_begin', {})
    await app.call('navigate', {route: '/settings', ...quiet})
    const report = await app.call('perf_end', {})
    expect(report.summary).toMatchObject({frames: {painted: 2, dropped: 0, overBudget: 1}})
    const insights = report.insights as Insight[]
    expect(insights.find((i) => i.evidence.metric === 'blocks.RegionDropdown.selfMs')).toMatchObject({
      severity: 'error',
      evidence: {perFrame: 12},
    })
    expect(insights.some((i) => i.evidence.metric === 'frames.dropped')).toBe(false)
  })

  it('scrolling the monitors list rebuilds every row in each scroll frame', async () => {
    const app = await signedInApp()
    const snapshot = (await app.call('snap', {})).snapshot as string
    const apiRow = /- button "API" \[ref=(e\d+)\]/.exec(snapshot)![1]!
    await app.call('perf_begin', {})
    await app.call('scroll', {ref: apiRow, dy: '300', ...quiet})
    const report = await app.call('perf_end', {})
    expect(report.summary).toMatchObject({frames: {painted: 4, dropped: 0, overBudget: 3, overBudgetBuild: 3}, routeTransitions: []})
    expect((report.summary as {blocksByCount: unknown[]}).blocksByCount).toContainEqual({name: 'MonitorRow', count: 60, perFrame: 15})
    const metrics = (report.insights as Insight[]).map((i) => `${i.severity} ${i.evidence.metric}`)
    expect(metrics).toEqual([
      'error frames.overBudget',
      'warn blocks.MonitorRow.selfMs',
      'warn blocks.SparkBar.count',
      'info coverage.missing',
    ])
  })

  it('refuses with no metrics when the app draws nothing (a hidden browser tab): the liveness counter stays put', async () => {
    const app = await readyToSignIn({web: true})
    app.setLifecycle('hidden')
    const begun = await app.call('perf_begin', {})
    expect(begun).not.toHaveProperty('warnings')
    await app.call('tap', {ref: 'e4', ...quiet})
    await app.call('navigate', {route: '/settings', ...quiet})
    const report = await app.call('perf_end', {})
    expect(report).toEqual({
      sessionToken: 'perf-1',
      refused: true,
      mode: 'attribution',
      coverage: {framesDrawn: 0, livenessBaseline: begun.livenessBaseline, livenessFinal: begun.livenessBaseline, complete: false},
      reason: expect.stringContaining('drew 0 frame(s)'),
    })
    expect(report.reason).toContain('No metrics')
    const drill = await failureWithCode(app.call('perf_insight', {id: 'I1'}))
    expect(drill.message).toContain('refused')
    expect(drill.message).toContain("perf_end's reason")
    expect((await failureWithCode(app.call('perf_trace', {}))).message).toContain('refused')
  })

  it('refuses a session whose interaction drew a single frame', async () => {
    const app = await signedInApp()
    await app.call('perf_begin', {})
    await app.call('navigate', {route: '/monitors', ...quiet})
    expect(await app.call('perf_end', {})).toMatchObject({refused: true, coverage: {framesDrawn: 1}})
  })

  it('timing mode carries frame timings only', async () => {
    const app = await readyToSignIn()
    const report = await signInAndOpenSettings(app, {mode: 'timing'})
    expect(report).toMatchObject({mode: 'timing', counters: null, env: {phases: false}, coverage: {missing: [], complete: true}})
    const summary = report.summary as Record<string, unknown>
    expect(Object.keys(summary)).toEqual(['durationMs', 'budgetMs', 'frames'])
    expect(summary.frames).toMatchObject({count: 10, painted: 9, dropped: 1, overBudget: 3})
    const metrics = (report.insights as Insight[]).map((i) => i.evidence.metric)
    expect(metrics).toEqual(['frames.overBudget', 'frames.dropped'])
    expect(report.omitted).toEqual({insights: 0})
    const drill = await app.call('perf_insight', {id: 'I1'})
    const worst = (drill.detail as {worstFrames: Array<{blocks: unknown[]}>}).worstFrames
    expect(worst.every((f) => f.blocks.length === 0)).toBe(true)
  })

  it('phases adds Layout and Paint blocks', async () => {
    const app = await readyToSignIn()
    const report = await signInAndOpenSettings(app, {phases: 'true', mode: 'attribution'})
    expect(report.env).toMatchObject({phases: true})
    const names = (report.summary as {blocksByCount: Array<{name: string}>}).blocksByCount.map((b) => b.name)
    expect(names).toContain('Layout')
    expect(names).toContain('Paint')
  })

  it('full lifts every cut', async () => {
    const app = await readyToSignIn()
    await app.call('perf_begin', {})
    await app.call('tap', {ref: 'e4', ...quiet})
    await app.call('navigate', {route: '/settings', ...quiet})
    const report = await app.call('perf_end', {full: 'true'})
    expect(Object.values(report.omitted as Record<string, number>).every((n) => n === 0)).toBe(true)
    expect((report.summary as {blocksBySelf: unknown[]}).blocksBySelf.length).toBeGreaterThan(10)
  })

  it('is deterministic', async () => {
    const one = await signInAndOpenSettings(await readyToSignIn())
    const two = await signInAndOpenSettings(await readyToSignIn())
    expect(two).toEqual(one)
  })

  it('never forces frames and never carries warnings', async () => {
    const app = await readyToSignIn()
    const {livenessBaseline} = await app.call('perf_begin', {})
    const again = await app.call('perf_begin', {})
    expect(again.livenessBaseline).toBe(livenessBaseline)
    app.setLifecycle('hidden')
    for (const verb of ['perf_begin', 'perf_end']) expect(await app.call(verb, {})).not.toHaveProperty('warnings')
  })

  it('does not survive a hot restart', async () => {
    const app = await readyToSignIn()
    await app.call('perf_begin', {})
    app.restart()
    expect((await failureWithCode(app.call('perf_end', {}))).message).toContain('perf_begin')
  })
})

describe('perf_insight', () => {
  it('drills into each rule: worst frames, gaps, the heavy block, the coverage map', async () => {
    const app = await readyToSignIn()
    await signInAndOpenSettings(app)
    const budget = await app.call('perf_insight', {id: 'I1', token: 'perf-1'})
    expect(Object.keys(budget)).toEqual(['sessionToken', 'id', 'severity', 'title', 'summary', 'detail', 'estimatedSavingsMs', 'nextStep'])
    expect(budget).toMatchObject({sessionToken: 'perf-1', id: 'I1', severity: 'error'})
    const worst = (budget.detail as {worstFrames: Array<Record<string, any>>}).worstFrames
    expect(worst).toHaveLength(3)
    expect(worst[0]).toMatchObject({buildMs: expect.any(Number), rasterMs: expect.any(Number), blocks: expect.any(Array)})
    expect(worst[0]!.blocks[0]).toEqual({name: 'RegionDropdown', selfMs: 24, count: 1})
    expect(worst.map((f) => Math.max(f.buildMs, f.rasterMs))).toEqual(
      [...worst.map((f) => Math.max(f.buildMs, f.rasterMs))].sort((a, b) => b - a),
    )

    const dropped = await app.call('perf_insight', {id: 'I2'})
    const gaps = (dropped.detail as {gaps: Array<{after: number; next: number; missing: number}>}).gaps
    expect(gaps).toHaveLength(1)
    expect(gaps[0]!.next - gaps[0]!.after).toBe(2)
    expect(gaps[0]!.missing).toBe(1)
    // The frame before the gap is the one that built the 20 monitor rows on sign-in.
    const before = (dropped.detail as {framesBeforeGaps: Array<{frameNumber: number; blocks: Array<{name: string; count: number}>}>})
      .framesBeforeGaps[0]!
    expect(before.frameNumber).toBe(gaps[0]!.after)
    expect(before.blocks).toContainEqual({name: 'MonitorRow', selfMs: 8, count: 20})

    const block = await app.call('perf_insight', {id: 'I3'})
    expect(block.detail).toMatchObject({block: {name: 'RegionDropdown', selfMs: 24, count: 1, frames: 1}, frames: [{selfMs: 24, count: 1}]})
    const count = await app.call('perf_insight', {id: 'I4'})
    expect(count.detail).toMatchObject({block: {name: 'SparkBar', count: 480}, frames: [{count: 480}]})
    const coverage = await app.call('perf_insight', {id: 'I5'})
    expect(coverage).toMatchObject({severity: 'info', estimatedSavingsMs: null, detail: {coverage: {framesDrawn: 9, missing: ['wind']}}})
  })

  it('errors name what to read instead', async () => {
    const app = await readyToSignIn()
    const noId = await failureWithCode(app.call('perf_insight', {}))
    expect(noId).toMatchObject({code: -32602, envelope: {type: 'missing_param'}})
    expect(noId.message).toContain('id')

    const none = await failureWithCode(app.call('perf_insight', {id: 'I1'}))
    expect(none.envelope.type).toBe('not_found')
    expect(none.message).toContain('perf_end')

    await signInAndOpenSettings(app)
    const unknown = await failureWithCode(app.call('perf_insight', {id: 'I9'}))
    expect(unknown.envelope).toEqual({type: 'not_found', suggestions: ['I1', 'I2', 'I3', 'I4', 'I5']})
    expect(unknown.message).toContain("perf_end's insights[]")

    const stale = await failureWithCode(app.call('perf_insight', {id: 'I1', token: 'perf-0'}))
    expect(stale.envelope).toEqual({type: 'stale', suggestions: ['perf-1']})
    expect(stale.message).toContain('perf-1')

    // A new begin clears the closed session: only the most recent closed one is kept.
    await app.call('perf_begin', {})
    const cleared = await failureWithCode(app.call('perf_insight', {id: 'I1', token: 'perf-1'}))
    expect(cleared.envelope.type).toBe('not_found')
    expect(cleared.message).toContain('perf-2 is still open')
    await app.call('navigate', {route: '/monitors', ...quiet})
    await app.call('navigate', {route: '/settings', ...quiet})
    await app.call('perf_end', {})
    expect((await failureWithCode(app.call('perf_insight', {id: 'I1', token: 'perf-1'}))).envelope.type).toBe('stale')
    expect(await app.call('perf_insight', {id: 'I1', token: 'perf-2'})).toMatchObject({sessionToken: 'perf-2'})
  })
})

describe('perf_trace', () => {
  it('exports the last closed session as Chrome Trace JSON', async () => {
    const app = await readyToSignIn()
    await signInAndOpenSettings(app)
    const trace = await app.call('perf_trace', {token: 'perf-1'})
    expect(trace).toMatchObject({
      displayTimeUnit: 'ms',
      otherData: {sessionToken: 'perf-1', mode: 'attribution', budgetMs: 16.7, frames: 9},
    })
    const events = trace.traceEvents as Array<Record<string, any>>
    const complete = events.filter((e) => e.ph === 'X')
    for (const e of complete) {
      expect(e).toMatchObject({pid: expect.any(Number), tid: expect.any(Number), ts: expect.any(Number), dur: expect.any(Number)})
      expect(Number.isInteger(e.ts) && Number.isInteger(e.dur)).toBe(true)
    }
    const frames = complete.filter((e) => /^Frame \d+$/.test(e.name))
    expect(frames).toHaveLength(9)
    expect(complete.filter((e) => e.name === 'Build')).toHaveLength(9)
    expect(complete.filter((e) => e.name === 'Raster')).toHaveLength(9)
    const region = complete.find((e) => e.name === 'RegionDropdown')!
    expect(region).toMatchObject({cat: 'block', dur: 24_000, args: {count: 1}})
    // Blocks sit inside their frame's Build span on the UI thread.
    const build = complete.find((e) => e.name === 'Build' && e.ts <= region.ts && region.ts + region.dur <= e.ts + e.dur)
    expect(build?.tid).toBe(region.tid)
    expect(events.some((e) => e.ph === 'i' && e.name === 'Dropped frames' && e.args.missing === 1)).toBe(true)
    const timestamps = frames.map((f) => f.ts)
    expect(timestamps).toEqual([...timestamps].sort((a, b) => a - b))
    for (let i = 1; i < frames.length; i++) expect(frames[i - 1]!.ts + frames[i - 1]!.dur).toBeLessThanOrEqual(frames[i]!.ts)
  })

  it('refuses without a closed session and on a stale token; timing traces carry no blocks', async () => {
    const app = await readyToSignIn()
    const none = await failureWithCode(app.call('perf_trace', {}))
    expect(none.envelope.type).toBe('not_found')
    await signInAndOpenSettings(app, {mode: 'timing'})
    const stale = await failureWithCode(app.call('perf_trace', {token: 'perf-7'}))
    expect(stale).toMatchObject({code: -32000, envelope: {type: 'stale', suggestions: ['perf-1']}})
    const trace = await app.call('perf_trace', {})
    expect((trace.traceEvents as Array<{cat?: string}>).some((e) => e.cat === 'block')).toBe(false)
  })
})
