import {existsSync, writeFileSync} from 'node:fs'
import {join} from 'node:path'
import {afterAll, beforeAll, describe, expect, it} from 'vitest'
import {expectNoProcessLeft} from '../helpers/leftovers.js'
import {simSession, type SimSession, letFramesStart, MEASURED_SIGN_IN_STEPS} from '../helpers/sim.js'

expectNoProcessLeft()

interface Distribution {
  p50: number
  p90: number
  p99: number
  worst: number
}

interface TimingReport {
  sessionToken: string
  refused: boolean
  mode: string
  env: Record<string, unknown>
  coverage: {framesDrawn: number; framesSummarized: number; framesOutsideSession: number; complete: boolean; missing: string[]}
  summary: {
    durationMs: number
    budgetMs: number
    frames: {
      count: number
      painted: number
      dropped: number
      overBudget: number
      overBudgetBuild: number
      overBudgetRaster: number
      buildMs: Distribution
      rasterMs: Distribution
    }
  }
  counters: null
  insights: Array<{id: string; severity: string; title: string; evidence: {metric: string}; nextStep: string}>
  omitted: Record<string, number>
}

// Frame timing on a debug app with no package: the Flutter.Frame events the framework posts
// (scheduler/binding.dart `_profileFramePostEvent`), read back from the history DDS keeps.
describe('a debug app with no package: perf in timing mode from Flutter.Frame events', () => {
  let s: SimSession
  beforeAll(async () => {
    s = await simSession({package: 'none', mode: 'dds'})
  })
  afterAll(async () => {
    expect(s.sim.requests.filter((request) => /^ext\.(tapir|dusk)\./.test(request.method))).toEqual([])
    expect(s.sim.violations).toEqual([])
    await s.close()
  })

  it('perf_begin opens a timing session; the sign-in is measured by perf_end; perf_insight drills in', async () => {
    const begin = await s.run(['tapir:perf_begin', '--json'])
    expect(begin.exitCode, begin.stderr).toBe(0)
    const opened = JSON.parse(begin.stdout) as Record<string, unknown>
    expect(opened).toEqual({
      sessionToken: 'perf-1',
      mode: 'timing',
      phases: false,
      livenessBaseline: expect.any(Number),
      restartedPreviousSession: false,
    })
    const run = await s.run(['tapir:run', ...MEASURED_SIGN_IN_STEPS])
    expect(run.exitCode, run.stderr).toBe(0)
    await letFramesStart()
    const end = await s.run(['tapir:perf_end', '--json'])
    expect(end.exitCode, end.stderr).toBe(0)
    const report = JSON.parse(end.stdout) as TimingReport
    expect(report).toMatchObject({sessionToken: 'perf-1', refused: false, mode: 'timing', counters: null})
    expect(Object.keys(report.summary).sort()).toEqual(['budgetMs', 'durationMs', 'frames'])
    const {frames} = report.summary
    expect(report.summary.budgetMs).toBe(16.7)
    expect(report.summary.durationMs).toBeGreaterThan(0)
    // Typing, the tap and the page transition: several frames, numbered by the engine.
    expect(frames.painted).toBeGreaterThanOrEqual(5)
    expect(frames.count).toBe(frames.painted + frames.dropped)
    expect(frames.buildMs.worst).toBeGreaterThanOrEqual(frames.buildMs.p50)
    expect(frames.rasterMs.worst).toBeGreaterThan(0)
    expect(report.coverage.framesSummarized).toBe(frames.painted)
    expect(report.coverage.missing).toContain('liveness')
    expect(report.env).toMatchObject({buildMode: 'debug', isWeb: false, phases: false})
    // The page transition's first frame overruns the budget and the engine skips the vsyncs it
    // ate: both rules fire, and the coverage note says what a package-free read lacks.
    const rules = report.insights.map((insight) => insight.evidence.metric)
    expect(rules).toContain('frames.overBudget')
    expect(rules).toContain('frames.dropped')
    expect(rules).toContain('coverage.missing')

    const line = await s.run(['tapir:perf_end'])
    expect(line.exitCode).toBe(3)
    expect(line.stderr).toMatch(/^✗ perf_end: no performance session is open; run tapir:perf_begin/)

    const dropped = report.insights.find((insight) => insight.evidence.metric === 'frames.dropped')!
    const insight = await s.run(['tapir:perf_insight', `--id=${dropped.id}`, '--token=perf-1'])
    expect(insight.exitCode, insight.stderr).toBe(0)
    const detail = JSON.parse(insight.stdout) as {sessionToken: string; id: string; detail: {gaps: Array<{after: number; next: number}>}}
    expect(detail).toMatchObject({sessionToken: 'perf-1', id: dropped.id})
    expect(detail.detail.gaps.length).toBeGreaterThan(0)
    const stale = await s.run(['tapir:perf_insight', '--id=I1', '--token=perf-9'])
    expect(stale.exitCode).toBe(3)
    expect(stale.stderr).toMatch(/token perf-9 is stale.*perf-1/)
  })

  it('the CLI summary line, and an idle session refused (exit 1) since nothing was drawn', async () => {
    expect((await s.run(['tapir:perf_begin'])).stdout).toBe('✓ Performance session perf-2 open (timing)')
    const idle = await s.run(['tapir:perf_end'])
    expect(idle.exitCode).toBe(1)
    expect(idle.stdout).toBe('')
    expect(idle.stderr).toMatch(/^✗ Performance session perf-2 refused: The engine drew 0 frame\(s\) during the session/)
    const json = await s.run(['tapir:perf_begin', '--json'])
    expect(JSON.parse(json.stdout)).toMatchObject({sessionToken: 'perf-3', restartedPreviousSession: false})
    const again = await s.run(['tapir:perf_begin', '--mode=timing', '--json'])
    expect(JSON.parse(again.stdout)).toMatchObject({sessionToken: 'perf-4', restartedPreviousSession: true})
    const refused = await s.run(['tapir:perf_end', '--json'])
    expect(refused.exitCode).toBe(1)
    expect(JSON.parse(refused.stdout)).toMatchObject({
      sessionToken: 'perf-4',
      refused: true,
      mode: 'timing',
      coverage: {framesDrawn: 0, complete: false},
    })
    const noInsight = await s.run(['tapir:perf_insight', '--id=I1'])
    expect(noInsight.exitCode).toBe(3)
    expect(noInsight.stderr).toMatch(/session perf-4 was refused/)
  })

  it('attribution, perf_trace and perf_run are refused in one line naming the way out', async () => {
    const attribution = await s.run(['tapir:perf_begin', '--mode=attribution'])
    expect(attribution).toMatchObject({exitCode: 1, stdout: ''})
    expect(attribution.stderr).toMatch(/^✗ .*--mode=timing.*tapir install/)
    expect(attribution.stderr.trim().split('\n')).toHaveLength(1)
    const trace = await s.run(['tapir:perf_trace', `--out=${s.dir}/t.json`])
    expect(trace.exitCode).toBe(1)
    expect(trace.stderr).toMatch(/^✗ tapir:perf_trace has no zero-install form: .*tapir install/)
    writeFileSync(join(s.dir, 'sign-in.yaml'), 'name: sign-in\nsteps:\n  - tap: {target: {text: Sign in}}\nrepeat: 1\n')
    const run = await s.run(['tapir:perf_run', join(s.dir, 'sign-in.yaml'), '--platform=android', `--out=${s.dir}`])
    expect(run.exitCode).toBe(1)
    expect(run.stderr).toMatch(
      /^✗ tapir:perf_run has no zero-install form: .*between tapir:perf_begin and tapir:perf_end for a timing report .*tapir install\.$/,
    )
    expect(existsSync(join(s.dir, 'sign-in-run.json'))).toBe(false)
  })
})

describe('a debug app with no package where the read cannot be made', () => {
  it('without DDS, perf_begin is refused in one line naming --dds, as console is', async () => {
    const s = await simSession({package: 'none'})
    try {
      const begin = await s.run(['tapir:perf_begin'])
      expect(begin).toMatchObject({exitCode: 1, stdout: ''})
      expect(begin.stderr).toMatch(/^✗ perf_begin on an app with no package reads .*--dds.*tapir install\.$/)
    } finally {
      await s.close()
    }
  })

  it('a web app (DWDS) has no timeline clock for the window: refused in one line naming tapir install', async () => {
    const s = await simSession({package: 'none', mode: 'dwds'})
    try {
      const begin = await s.run(['tapir:perf_begin'])
      expect(begin).toMatchObject({exitCode: 1, stdout: ''})
      expect(begin.stderr).toMatch(
        /^✗ perf_begin on an app with no package places frames on the VM's timeline clock .*\(DWDS, a web app\): run tapir install\.$/,
      )
    } finally {
      await s.close()
    }
  })
})
