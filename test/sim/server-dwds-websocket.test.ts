import {describe, expect, it} from 'vitest'
import {simPerTest, type Json} from './server-helpers.js'

// DWDS's two modes as webdev's dwds has them (docs/dwds-and-vm.md): WebSocketProxyService for
// `flutter run -d web-server`, ChromeProxyService for `-d chrome`.
describe('the sim in dwds-websocket mode: DWDS in WebSocket mode behind DDS (flutter run -d web-server)', () => {
  const t = simPerTest()

  it('names its VM WebSocketDebugProxy, as WebSocketProxyService.create does', async () => {
    const {client} = await t.connect({mode: 'dwds-websocket'})
    const vm = (await client.call('getVM')).result
    expect(vm).toMatchObject({name: 'WebSocketDebugProxy', targetCPU: 'Web', hostCPU: 'DWDS', pid: -1})
    expect(vm.isolates[0].id).toBe('1')
  })

  it('has no evaluate: -32603 with a NoSuchMethodError, as VmServerConnection answers what noSuchMethod threw', async () => {
    const {client, isolateId} = await t.connect({mode: 'dwds-websocket'})
    const reply = await client.call('evaluate', {isolateId, targetId: 'package:monitors/main.dart', expression: '1 + 2'})
    expect(reply.error.code).toBe(-32603)
    expect(reply.error.message).toMatch(/^evaluate: NoSuchMethodError: .*'evaluate'/)
  })

  it("answers an extension with type Response, and an extension's error as a result {code, message, data}", async () => {
    const {client, isolateId} = await t.connect({mode: 'dwds-websocket'})
    expect((await client.call('ext.tapir.ping', {isolateId, n: '1'})).result).toMatchObject({pong: true, type: 'Response'})
    const failed = await client.call('ext.tapir.fail', {isolateId})
    expect(failed.error).toBeUndefined()
    expect(failed.result).toMatchObject({code: -32001, data: {details: expect.stringContaining('no such widget')}})
  })

  it('ignores the isolate id of an extension call: no Sentinel for a stale one', async () => {
    const {client} = await t.connect({mode: 'dwds-websocket'})
    expect((await client.call('ext.tapir.ping', {isolateId: 'isolates/999'})).result).toMatchObject({pong: true})
  })

  it('gives up on a call after the cap with a TimeoutException wrapped as -32603, and no data', async () => {
    const {client, isolateId} = await t.connect({mode: 'dwds-websocket', callCapMs: 300, faults: {paused: true}})
    const started = Date.now()
    const reply = await client.call('ext.tapir.ping', {isolateId})
    expect(Date.now() - started).toBeGreaterThanOrEqual(290)
    expect(reply.error).toMatchObject({
      code: -32603,
      message:
        'Unexpected DWDS error for callServiceExtension: TimeoutException after 0:00:00.300000: Service extension ext.tapir.ping timed out - received 0/1 responses',
    })
    // DDS's json_rpc_2 adds data.request to an error it forwards; DWDS itself puts no details there.
    expect(reply.error.data?.details).toBeUndefined()
  })

  it('keeps its cap at DWDS’s own 10 s by default', async () => {
    const {client, isolateId} = await t.connect({mode: 'dwds-websocket', faults: {paused: true}})
    client.sendText(JSON.stringify({jsonrpc: '2.0', id: 'held', method: 'ext.tapir.ping', params: {isolateId}}))
    // Held 2 s in the app, well inside DWDS's 10 s: the app's answer still comes back.
    setTimeout(() => t.sim.setFaults({paused: false}), 2000)
    const reply = await client.waitFor((message) => message.id === 'held', 8000)
    expect(reply.result).toMatchObject({pong: true})
  })

  it('fails a call the page cannot run as "failed in some clients", -32603, not -32601', async () => {
    const {client, isolateId} = await t.connect({mode: 'dwds-websocket'})
    const reply = await client.call('ext.tapir.nope', {isolateId})
    expect(reply.error.code).toBe(-32603)
    expect(reply.error.message).toMatch(/^Unexpected DWDS error for callServiceExtension: Service extension failed in some clients: /)
    expect(reply.error.data?.details).toBeUndefined()
  })

  it('registers only hotRestart with DDS (WebSocketDwdsVmClient), no fullReload', async () => {
    const {client} = await t.connect({mode: 'dwds-websocket'})
    await client.call('streamListen', {streamId: 'Service'})
    await client.waitFor((message) => message.params?.event?.service === 'hotRestart')
    const services = client.events('Service').map((event: Json) => event.service)
    expect(services).toEqual(['hotRestart'])
  })

  // dev_handler.dart `_handleIsolateStart` → WebSocketProxyService.createIsolate returns early
  // while an isolate runs; proxy_service.dart `parseRegisterEvent` adds each registration again.
  it('keeps isolate "1" and its extension list across a hot restart; the new page re-registers each extension', async () => {
    const {client, isolateId} = await t.connect({mode: 'dwds-websocket'})
    expect(isolateId).toBe('1')
    await client.call('streamListen', {streamId: 'Isolate'})
    const restarted = t.sim.restartIsolate({extensionDelayMs: 300})
    // In the window: the same isolate, still listing the old page's extensions, which the new page has not registered.
    const during = (await client.call('getIsolate', {isolateId: '1'})).result
    expect(during.extensionRPCs).toContain('ext.tapir.ping')
    const early = await client.call('ext.tapir.ping', {isolateId})
    expect(early.error?.message).toMatch(/^Unexpected DWDS error for callServiceExtension: Service extension failed in some clients: /)
    await restarted
    await client.waitFor((message) => message.params?.event?.extensionRPC === 'ext.tapir.ping')
    expect((await client.call('ext.tapir.ping', {isolateId})).result).toMatchObject({pong: true})
    const events = client.events('Isolate')
    expect(events.filter((event: Json) => ['IsolateExit', 'IsolateStart', 'IsolateRunnable'].includes(event.kind))).toEqual([])
    const added = events.filter((event: Json) => event.kind === 'ServiceExtensionAdded')
    expect(added.map((event: Json) => event.isolate.id)).toEqual(added.map(() => '1'))
    const vm = (await client.call('getVM')).result
    expect(vm.isolates.map((isolate: Json) => isolate.id)).toEqual(['1'])
    // Listed twice now: DWDS adds the new page's registration to the list it kept.
    const after = (await client.call('getIsolate', {isolateId: '1'})).result.extensionRPCs as string[]
    expect(after.filter((method) => method === 'ext.tapir.ping')).toHaveLength(2)
  })
})

describe('the sim in dwds mode: DWDS as a Chrome proxy (flutter run -d chrome)', () => {
  const t = simPerTest()

  it('registers hotRestart and fullReload (ChromeDwdsVmClient)', async () => {
    const {client} = await t.connect({mode: 'dwds'})
    await client.call('streamListen', {streamId: 'Service'})
    await client.waitFor((message) => message.params?.event?.service === 'fullReload')
    expect(client.events('Service').map((event: Json) => event.service)).toEqual(expect.arrayContaining(['hotRestart', 'fullReload']))
  })

  it("re-throws an extension's error with its data, as ChromeProxyService._callServiceExtension does", async () => {
    const {client, isolateId} = await t.connect({mode: 'dwds'})
    const failed = await client.call('ext.tapir.fail', {isolateId})
    expect(failed.error).toMatchObject({code: -32001, data: {details: expect.stringContaining('no such widget')}})
  })

  it('answers evaluate with -32600 when flutter gave DWDS no expression compiler', async () => {
    const {client, isolateId} = await t.connect({mode: 'dwds', expressionCompiler: false})
    const reply = await client.call('evaluate', {isolateId, targetId: 'package:monitors/main.dart', expression: '1 + 2'})
    expect(reply.error).toMatchObject({code: -32600, message: 'Expression evaluation is not supported for this configuration.'})
  })

  it('answers -32601 "Unknown service method" for an extension the page has not registered yet', async () => {
    const {client} = await t.connect({mode: 'dwds'})
    const restarted = t.sim.restartIsolate({extensionDelayMs: 200})
    const reply = await client.call('ext.tapir.ping', {isolateId: '2'})
    expect(reply.error).toMatchObject({code: -32601, message: 'Unknown service method: ext.tapir.ping'})
    await restarted
  })
})
