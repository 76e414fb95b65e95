import {describe, expect, it} from 'vitest'
import type {SharedState, VerbCall} from '../../src/lib/verbs/types.js'
import type {AppConnection} from '../../src/lib/vm/app-connection.js'
import {Deadline} from '../../src/lib/vm/deadline.js'
import {perfEnd} from '../../src/lib/zero/perf.js'

// perf_end on an app with no package waits a quarter second for the engine's last batch of frame
// timings; another tapir process (a CLI line beside an MCP server) may open a session meanwhile.
/** The sidecar's locked read-modify-write, over a variable the test also changes. */
function sharedIn(get: () => unknown, set: (state: unknown) => void): SharedState {
  return {
    read: get,
    update: (change) => {
      const {state, answer} = change(get())
      set(state)
      return Promise.resolve(answer)
    },
  }
}

describe('zero-install perf_end beside a perf_begin of another process', () => {
  it('closes its own session and leaves the one opened while it waited open', async () => {
    let state: unknown = {next: 2, open: {token: 'perf-1', startUs: 0, livenessBaseline: 0}}
    const shared = sharedIn(
      () => state,
      (next) => (state = next),
    )
    let clock = 0
    const app = {
      keepsStreamHistory: () => Promise.resolve(true),
      timelineMicros: () => {
        clock += 1_000_000
        // The second read of the clock is perf_end's wait: a perf_begin elsewhere opens perf-2.
        if (clock === 2_000_000) state = {next: 3, open: {token: 'perf-2', startUs: clock, livenessBaseline: 0}}
        return Promise.resolve(clock)
      },
      streamEvents: () => Promise.resolve([]),
      isolateIdsNow: () => Promise.resolve(['isolates/1']),
      operatingSystem: () => Promise.resolve('linux'),
      extensionRPCs: () => Promise.resolve([]),
    } as unknown as AppConnection
    const call = {deadline: new Deadline(5_000), perfState: () => shared} as unknown as VerbCall
    const report = await perfEnd(app, call)
    expect(report).toMatchObject({sessionToken: 'perf-1', refused: true})
    expect(state).toMatchObject({next: 3, open: {token: 'perf-2'}, closed: {token: 'perf-1'}})
  })

  it('takes the frame before the first of the session as the baseline when perf_begin saw none', async () => {
    // Begun right after a hot restart: the new isolate had reported no frame, and the engine's
    // numbers run on from the old one's.
    let state: unknown = {next: 2, open: {token: 'perf-1', startUs: 1_000, livenessBaseline: 0}}
    const shared = sharedIn(
      () => state,
      (next) => (state = next),
    )
    const frame = (number: number) => ({
      kind: 'Extension',
      extensionKind: 'Flutter.Frame',
      extensionData: {number, startTime: 1_000 + number * 16_000, elapsed: 9_000, build: 4_000, raster: 3_000, vsyncOverhead: 100},
      isolate: {id: 'isolates/2'},
    })
    let clock = 1_000_000_000
    const app = {
      keepsStreamHistory: () => Promise.resolve(true),
      timelineMicros: () => Promise.resolve((clock += 300_000)),
      streamEvents: () => Promise.resolve(Array.from({length: 10}, (_, index) => frame(5_001 + index))),
      isolateIdsNow: () => Promise.resolve(['isolates/2']),
      operatingSystem: () => Promise.resolve('linux'),
      extensionRPCs: () => Promise.resolve([]),
    } as unknown as AppConnection
    const call = {deadline: new Deadline(5_000), perfState: () => shared} as unknown as VerbCall
    const report = await perfEnd(app, call)
    expect(report).toMatchObject({refused: false, coverage: {framesDrawn: 10, complete: true}})
  })
})
