import {describe, expect, it} from 'vitest'
import {list, object, string} from '../../src/lib/shape.js'
import {checkAnswer} from '../../src/lib/vm/malformed.js'
import {bootAnswer} from '../../src/lib/vm/tapir-answers.js'
import {createMonitorsApp} from '../../src/sim/app/index.js'
import type {SimApp} from '../../src/sim/app-contract.js'
import {startSim} from '../../src/sim/index.js'
import {quiet, signIn} from './app-helpers.js'

type Report = {
  summary: {frames: {painted: number; buildMs: {p50: number}}; blocksByCount: Array<{name: string; count: number; perFrame: number}>}
}

/** Signs in, then measures three scrolls of the monitors list (down, up, down). */
async function measureScrolls(app: SimApp): Promise<Report> {
  await signIn(app)
  await app.call('perf_begin', {})
  for (const dy of ['400', '-400', '400']) await app.call('scroll', {dy, ...quiet})
  return (await app.call('perf_end', {full: 'true'})) as unknown as Report
}

const sparkBars = (report: Report) => report.summary.blocksByCount.find((b) => b.name === 'SparkBar')!

describe('frames that follow the work', () => {
  it('scrolling the list paints settle frames that rebuild the rows that moved', async () => {
    const report = await measureScrolls(createMonitorsApp())
    expect(report.summary.frames.painted).toBeGreaterThanOrEqual(3 * 4)
    expect(sparkBars(report).count % 24).toBe(0)
    expect(sparkBars(report).count).toBeGreaterThan(0)
  })

  it('the regression knob doubles the SparkBar builds of every row per frame', async () => {
    const plain = await measureScrolls(createMonitorsApp())
    const regressed = await measureScrolls(createMonitorsApp({perfRegression: true}))
    expect(regressed.summary.frames.painted).toBe(plain.summary.frames.painted)
    expect(sparkBars(regressed).count).toBe(2 * sparkBars(plain).count)
  })

  it('each boot wanders its own deterministic way', async () => {
    const app = createMonitorsApp()
    const first = await measureScrolls(app)
    expect(await measureScrolls(createMonitorsApp())).toEqual(first)
    app.restart()
    const rebooted = await measureScrolls(app)
    expect(rebooted.summary.frames.buildMs.p50).not.toBe(first.summary.frames.buildMs.p50)
  })
})

describe('the flutter run stand-in', () => {
  it('registers reloadSources and hotRestart; hotRestart replaces the isolate and mints a new boot id', async () => {
    const sim = await startSim({flutterTool: true})
    try {
      const {VmServiceClient} = await import('../../src/lib/vm/client.js')
      const client = await VmServiceClient.connect(sim.wsUri, {timeoutMs: 5000})
      const events: Array<Record<string, unknown>> = []
      await client.listen('Service', (event) => events.push(event))
      expect(events).toEqual([
        expect.objectContaining({kind: 'ServiceRegistered', service: 'reloadSources', method: 's0.reloadSources', alias: 'Flutter Tools'}),
        expect.objectContaining({kind: 'ServiceRegistered', service: 'hotRestart', method: 's0.hotRestart', alias: 'Flutter Tools'}),
      ])
      const isolates = async () => checkAnswer('getVM', object({isolates: list(object({id: string}))}), await client.call('getVM')).isolates
      const boot = async (isolateId: string) => checkAnswer('boot_id', bootAnswer, await client.call('ext.tapir.boot_id', {isolateId}))
      const before = (await isolates())[0]!.id
      const bootBefore = await boot(before)
      expect(await client.call(String(events[1]!.method), {})).toEqual({type: 'Success'})
      const after = (await isolates())[0]!.id
      expect(after).not.toBe(before)
      const bootAfter = await boot(after)
      expect(bootAfter.bootId).not.toBe(bootBefore.bootId)
      client.close()
    } finally {
      await sim.close()
    }
    expect(sim.violations).toEqual([])
  })
})
