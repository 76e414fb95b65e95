import {afterEach, describe, expect, it} from 'vitest'
import {AppConnection} from '../../src/lib/vm/app-connection.js'
import {Deadline} from '../../src/lib/vm/deadline.js'
import {bootAnswer} from '../../src/lib/vm/tapir-answers.js'
import {toWebSocketUri} from '../../src/lib/vm/uri.js'
import {startSim, type SimHandle, type SimMode} from '../../src/sim/index.js'

// A restart someone else did (flutter's R in its terminal) while tapir holds a connection: the
// next call must wait for tapir on the new isolate (docs/dwds-and-vm.md §4), whether tapir sees
// it as a Collected sentinel (the VM, DWDS's Chrome proxy) or as a call the new page could not
// run (DWDS in WebSocket mode ignores the isolate id).
describe.each<SimMode>(['vm', 'dwds', 'dwds-websocket'])('a restart tapir saw on a held connection (%s)', (mode) => {
  let sim: SimHandle | undefined
  let app: AppConnection | undefined
  afterEach(async () => {
    app?.close()
    await sim?.close()
  })

  it('waits for tapir on the new isolate, then answers from it', async () => {
    sim = await startSim({mode})
    app = await AppConnection.open(toWebSocketUri(sim.httpUri), 5000)
    const before = (await app.callExtension('boot_id', {}, bootAnswer, new Deadline(5000))).bootId
    const restarted = sim.restartIsolate({extensionDelayMs: 800})
    const after = (await app.callExtension('boot_id', {}, bootAnswer, new Deadline(5000))).bootId
    expect(after).not.toBe(before)
    await restarted
  })
})
