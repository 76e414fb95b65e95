import {afterAll, beforeAll, describe, expect, it} from 'vitest'
import {AppConnection} from '../../src/lib/vm/app-connection.js'
import {Deadline} from '../../src/lib/vm/deadline.js'
import {bootAnswer} from '../../src/lib/vm/tapir-answers.js'
import {toWebSocketUri} from '../../src/lib/vm/uri.js'
import {startSim, type SimHandle} from '../../src/sim/index.js'

describe('AppConnection against the sim', () => {
  let sim: SimHandle
  let app: AppConnection
  beforeAll(async () => {
    sim = await startSim()
    app = await AppConnection.open(toWebSocketUri(sim.httpUri), 5000)
  })
  afterAll(async () => {
    app.close()
    await sim.close()
  })

  it('finds the isolate by its ext.tapir.* extensions and calls into it', async () => {
    const result = await app.callExtension('boot_id', {}, bootAnswer, new Deadline(5000))
    expect(typeof result.bootId).toBe('string')
  })

  it('after a hot restart (Collected sentinel) resolves the new isolate and retries once', async () => {
    const before = (await app.callExtension('boot_id', {}, bootAnswer, new Deadline(5000))).bootId
    await sim.restartIsolate()
    const after = (await app.callExtension('boot_id', {}, bootAnswer, new Deadline(5000))).bootId
    expect(after).not.toBe(before)
    const calls = sim.requests.filter((request) => request.method === 'ext.tapir.boot_id').map((request) => request.params.isolateId)
    // the retried call went to a different isolate than the one that came back Collected
    expect(new Set(calls.slice(-2)).size).toBe(2)
    expect(sim.requests.filter((request) => request.method === 'getVM').length).toBeGreaterThanOrEqual(2)
  })

  it('fails every pending call when the socket closes', async () => {
    const other = await AppConnection.open(toWebSocketUri(sim.httpUri), 5000)
    sim.setFaults({hangOn: 'ext.tapir.boot_id'})
    const pending = [
      other.callExtension('boot_id', {}, bootAnswer, new Deadline(5000)),
      other.callExtension('boot_id', {}, bootAnswer, new Deadline(5000)),
    ]
    await new Promise((resolve) => setTimeout(resolve, 100))
    other.close()
    for (const call of pending) await expect(call).rejects.toThrow('The VM Service connection closed before ext.tapir.boot_id answered')
    sim.setFaults({hangOn: null})
  })

  it('delivers stream events to listeners, and a second listen on the stream is not an error', async () => {
    const kinds: string[] = []
    await app.client.listen('Isolate', (event) => kinds.push(String(event.kind)))
    await app.client.listen('Isolate', () => {})
    await sim.restartIsolate()
    await new Promise((resolve) => setTimeout(resolve, 100))
    expect(kinds).toEqual(expect.arrayContaining(['IsolateExit', 'IsolateStart', 'IsolateRunnable', 'ServiceExtensionAdded']))
    expect(sim.requests.filter((request) => request.method === 'streamListen')).toHaveLength(1)
  })

  it('evaluates in the root library', async () => {
    const value = await app.evaluate('1 + 2', new Deadline(5000))
    expect(value).toMatchObject({kind: 'Int', valueAsString: '3'})
  })
})
