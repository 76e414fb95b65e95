import {describe, expect, it} from 'vitest'
import {simPerTest, type Json} from './server-helpers.js'

const t = simPerTest()
const connect = t.connect

async function received(method: string): Promise<void> {
  while (t.sim.requests.at(-1)?.method !== method) await new Promise((resolve) => setTimeout(resolve, 5))
}

const noReplyWithin = async (reply: Promise<Json>, ms: number): Promise<void> => {
  const timedOut = Symbol('timed out')
  expect(await Promise.race([reply.catch(() => undefined), new Promise((resolve) => setTimeout(() => resolve(timedOut), ms))])).toBe(
    timedOut,
  )
}

describe('hot restart as isolate replacement', () => {
  it('emits IsolateExit, IsolateStart, IsolateRunnable and one ServiceExtensionAdded per extension', async () => {
    const {client, isolateId} = await connect()
    await client.call('streamListen', {streamId: 'Isolate'})
    await t.sim.restartIsolate()
    const newId = (await client.call('getVM')).result.isolates[0].id
    const extensionRPCs = (await client.call('getIsolate', {isolateId: newId})).result.extensionRPCs
    const events = client.events('Isolate')
    expect(newId).not.toBe(isolateId)
    expect(events.slice(0, 3).map((event) => [event.kind, event.isolate.id])).toEqual([
      ['IsolateExit', isolateId],
      ['IsolateStart', newId],
      ['IsolateRunnable', newId],
    ])
    const added = events.filter((event) => event.kind === 'ServiceExtensionAdded').map((event) => event.extensionRPC)
    expect(added).toEqual(extensionRPCs)
    expect(added.at(-1)).toBe('ext.tapir.boot_id')
    expect((await client.call('ext.tapir.boot_id', {isolateId: newId})).result).toEqual({bootId: 'boot-2'})
  })

  it('answers the old isolate id with a Collected sentinel', async () => {
    const {client, isolateId} = await connect()
    await t.sim.restartIsolate()
    const collected = {type: 'Sentinel', kind: 'Collected', valueAsString: '<collected>'}
    expect((await client.call('getIsolate', {isolateId})).result).toEqual(collected)
    expect((await client.call('ext.tapir.ping', {isolateId})).result).toEqual(collected)
  })

  it('answers -32601 for the app extensions until they re-register after the delay', async () => {
    const {client} = await connect()
    const restarted = t.sim.restartIsolate({extensionDelayMs: 100})
    const newId = (await client.call('getVM')).result.isolates[0].id
    expect((await client.call('ext.tapir.ping', {isolateId: newId})).error.code).toBe(-32601)
    expect((await client.call('getIsolate', {isolateId: newId})).result.extensionRPCs).not.toContain('ext.tapir.ping')
    expect((await client.call('ext.flutter.reassemble', {isolateId: newId})).result).toEqual({})
    await restarted
    expect((await client.call('ext.tapir.ping', {isolateId: newId})).result.pong).toBe(true)
  })

  it('sends events only on listened streams', async () => {
    const {client} = await connect()
    await t.sim.restartIsolate()
    await client.call('getVersion')
    expect(client.events('Isolate')).toEqual([])
  })
})

describe('fault knobs', () => {
  it('latencyMs delays every reply', async () => {
    const {client} = await connect({faults: {latencyMs: 80}})
    const started = Date.now()
    await client.call('getVersion')
    expect(Date.now() - started).toBeGreaterThanOrEqual(75)
    t.sim.faults.latencyMs = 0
    const again = Date.now()
    await client.call('getVersion')
    expect(Date.now() - again).toBeLessThan(75)
  })

  it('hangOn never replies to that method, but answers others', async () => {
    const {client} = await connect()
    t.sim.faults.hangOn = 'getVersion'
    await noReplyWithin(client.call('getVersion'), 100)
    expect((await client.call('getVM')).result.type).toBe('VM')
  })

  it('dropSocketOn closes the socket abruptly without a reply', async () => {
    const {client} = await connect({faults: {dropSocketOn: 'ext.tapir.ping'}})
    void client.call('ext.tapir.ping', {isolateId: 'isolates/1'}).catch(() => undefined)
    expect((await client.closed).code).toBe(1006)
    expect(t.sim.requests.at(-1)?.method).toBe('ext.tapir.ping')
  })

  it('malformedOn answers with a frame that is not JSON', async () => {
    const {client} = await connect()
    t.sim.faults.malformedOn = 'getVersion'
    client.sendText(JSON.stringify({jsonrpc: '2.0', id: 'x', method: 'getVersion', params: {}}))
    await client.call('getVM')
    const malformed = client.frames.find((frame) => frame.includes('Version'))!
    expect(() => JSON.parse(malformed)).toThrow()
  })

  it('extensionsMissing hides ext.tapir.* and answers -32601 exactly as the VM', async () => {
    const {client, isolateId} = await connect({faults: {extensionsMissing: true}})
    const rpcs: string[] = (await client.call('getIsolate', {isolateId})).result.extensionRPCs
    expect(rpcs.some((rpc) => rpc.startsWith('ext.tapir.'))).toBe(false)
    expect(rpcs).toContain('ext.flutter.reassemble')
    expect((await client.call('ext.tapir.ping', {isolateId})).error).toEqual({
      code: -32601,
      message: 'Method not found',
      data: {request: {method: 'ext.tapir.ping', params: {isolateId}}},
    })
  })

  it('paused holds extension replies until unpaused, and reports the pause', async () => {
    const {client, isolateId} = await connect({faults: {paused: true}})
    await client.call('streamListen', {streamId: 'Debug'})
    expect((await client.call('getIsolatePauseEvent', {isolateId})).result.kind).toBe('PauseInterrupted')
    const held = client.call('ext.tapir.ping', {isolateId})
    await noReplyWithin(held, 100)
    t.sim.faults.paused = false
    expect((await held).result.pong).toBe(true)
    expect(client.events('Debug').map((event) => event.kind)).toEqual(['Resume'])
  })

  it('setFaults and the resume RPC release held calls too', async () => {
    const {client, isolateId} = await connect()
    t.sim.setFaults({paused: true})
    const first = client.call('ext.tapir.ping', {isolateId})
    await noReplyWithin(first, 50)
    t.sim.setFaults({paused: false})
    expect((await first).result.pong).toBe(true)

    t.sim.faults.paused = true
    const second = client.call('ext.tapir.ping', {isolateId})
    expect((await client.call('resume', {isolateId})).result).toEqual({type: 'Success'})
    expect((await second).result.pong).toBe(true)
    expect((await client.call('resume', {isolateId})).error).toMatchObject({code: 106, message: 'Isolate must be paused'})
  })

  it('drops calls held by an isolate that a restart replaced', async () => {
    const {client, isolateId} = await connect({faults: {paused: true}})
    const held = client.call('ext.tapir.ping', {isolateId})
    await received('ext.tapir.ping')
    await t.sim.restartIsolate()
    t.sim.faults.paused = false
    await noReplyWithin(held, 100)
  })
})
