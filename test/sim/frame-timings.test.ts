import {afterEach, describe, expect, it} from 'vitest'
import {BATCH_MS, flutterFrameData, FrameTimings, type FrameTiming, type TimerHost} from '../../src/sim/app/frame-timings.js'
import type {FrameRecord} from '../../src/sim/app/perf/types.js'
import {startSim, type SimHandle} from '../../src/sim/index.js'
import {RawClient, type Json} from './server-helpers.js'

/** A clock and timers the test moves by hand. */
function fakeTime(): {clockUs: () => number; timers: TimerHost; advance(ms: number): void} {
  let nowUs = 1_000_000
  let due: Array<{atUs: number; run: () => void}> = []
  return {
    clockUs: () => nowUs,
    timers: {later: (ms, run) => due.push({atUs: nowUs + ms * 1000, run})},
    advance(ms) {
      const until = nowUs + ms * 1000
      for (;;) {
        const next = due.filter((timer) => timer.atUs <= until).sort((a, b) => a.atUs - b.atUs)[0]
        if (next === undefined) break
        due = due.filter((timer) => timer !== next)
        nowUs = Math.max(nowUs, next.atUs)
        next.run()
      }
      nowUs = until
    },
  }
}

const frame = (frameNumber: number, startUs: number, buildMs = 2, rasterMs = 3): FrameRecord => ({
  frameNumber,
  startUs,
  buildMs,
  rasterMs,
  blocks: [],
  phaseBlocks: [],
})

describe("the engine's frame timings, batched as Shell::OnFrameRasterized batches them", () => {
  it('reports the first frame at once, then one batch 100 ms after the first frame of the batch', () => {
    const time = fakeTime()
    const batches: number[][] = []
    const timings = new FrameTimings(time.clockUs, (batch) => batches.push(batch.map((t) => t.frameNumber)), time.timers)
    timings.drawn([frame(1, 0)])
    time.advance(10)
    expect(batches).toEqual([[1]])
    timings.drawn([frame(2, 0), frame(3, 16_667), frame(4, 33_334)])
    time.advance(BATCH_MS - 1)
    expect(batches).toEqual([[1]])
    time.advance(60)
    expect(batches).toEqual([[1], [2, 3, 4]])
  })

  it('reports at once when 100 frames wait', () => {
    const time = fakeTime()
    const batches: number[][] = []
    const timings = new FrameTimings(time.clockUs, (batch) => batches.push(batch.map((t) => t.frameNumber)), time.timers)
    timings.drawn([frame(1, 0)])
    time.advance(5)
    // 100 frames rasterised within a few ms of each other (a tiny build and raster each).
    timings.drawn(Array.from({length: 100}, (_, i) => frame(i + 2, i * 10, 0.001, 0.001)))
    // They start on the vsync after the first frame's: 16.7 ms after it, well inside one batch time.
    time.advance(20)
    expect(batches.map((batch) => batch.length)).toEqual([1, 100])
  })

  it('stamps each frame on the timeline clock from the draw on, and numbers on across a hot restart', () => {
    const time = fakeTime()
    const reported: FrameTiming[] = []
    const timings = new FrameTimings(time.clockUs, (batch) => reported.push(...batch), time.timers)
    timings.drawn([frame(1, 500, 4, 6), frame(3, 17_167, 2, 2)])
    timings.restarted()
    time.advance(200)
    timings.drawn([frame(1, 0)])
    time.advance(200)
    expect(reported.map((t) => t.frameNumber)).toEqual([1, 3, 4])
    const [first, second] = reported
    expect(first!.vsyncStart).toBe(1_000_000)
    expect(second!.vsyncStart - first!.vsyncStart).toBe(16_667)
    expect(flutterFrameData(first!)).toEqual({
      number: 1,
      startTime: first!.buildStart,
      elapsed: first!.rasterFinish - first!.vsyncStart,
      build: 4000,
      raster: 6000,
      vsyncOverhead: first!.buildStart - first!.vsyncStart,
    })
  })
})

let sim: SimHandle | undefined
let client: RawClient | undefined
afterEach(async () => {
  client?.socket.close()
  await sim?.close()
  sim = client = undefined
})

const frames = (events: Json[]): Json[] => events.filter((event) => event.extensionKind === 'Flutter.Frame')

describe('Flutter.Frame on the Extension stream, and the clock it is stamped with', () => {
  it('a debug app posts one per frame; DDS keeps them for a listener that comes later', async () => {
    sim = await startSim({mode: 'dds', package: 'none'})
    const first = await RawClient.open(sim.wsUri, {followRedirects: true})
    const before = (await first.call('getVMTimelineMicros')).result as Json
    expect(before).toEqual({type: 'Timestamp', timestamp: expect.any(Number)})
    const isolateId = (await first.call('getVM')).result.isolates[0].id as string
    // A hot reload's reassemble builds every widget again: a draw after the first frame.
    await first.call('ext.flutter.reassemble', {isolateId})
    first.socket.close()
    await new Promise((resolve) => setTimeout(resolve, 3 * BATCH_MS))
    client = await RawClient.open(sim.wsUri, {followRedirects: true})
    await client.call('streamListen', {streamId: 'Extension'})
    const posted = frames(client.events('Extension'))
    expect(posted.length).toBeGreaterThanOrEqual(1)
    for (const event of posted) {
      expect(event).toMatchObject({kind: 'Extension', extensionKind: 'Flutter.Frame', isolate: {id: isolateId}})
      expect(Object.keys(event.extensionData as Json).sort()).toEqual([
        'build',
        'elapsed',
        'number',
        'raster',
        'startTime',
        'vsyncOverhead',
      ])
    }
    const numbers = posted.map((event) => (event.extensionData as Json).number as number)
    expect(numbers).toEqual([...numbers].sort((a, b) => a - b))
    const after = ((await client.call('getVMTimelineMicros')).result as Json).timestamp as number
    const last = posted.at(-1)!.extensionData as Json
    expect(last.startTime as number).toBeLessThan(after)
  })

  it('DWDS has no timeline clock: getVMTimelineMicros is not supported on the web', async () => {
    sim = await startSim({mode: 'dwds', package: 'none'})
    client = await RawClient.open(sim.wsUri, {followRedirects: true})
    const answer = await client.call('getVMTimelineMicros')
    expect(answer.error).toMatchObject({message: expect.stringMatching(/Not supported on web devices/)})
  })
})
