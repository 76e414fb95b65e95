import {afterAll, beforeAll, describe, expect, it} from 'vitest'
import {AppConnection} from '../../src/lib/vm/app-connection.js'
import {Deadline} from '../../src/lib/vm/deadline.js'
import {bootAnswer} from '../../src/lib/vm/tapir-answers.js'
import {toWebSocketUri} from '../../src/lib/vm/uri.js'
import {startSim, type SimHandle} from '../../src/sim/index.js'
import {RawClient} from './server-helpers.js'

describe('the sim in dwds mode: the debug service of a Flutter web app', () => {
  let sim: SimHandle
  let raw: RawClient
  beforeAll(async () => {
    sim = await startSim({mode: 'dwds'})
    raw = await RawClient.open(sim.wsUri)
  })
  afterAll(async () => {
    raw.socket.close()
    await sim.close()
  })

  it('announces ws://host:port/TOKEN (no /ws) and is a ChromeDebugProxy with isolate "1" and no isolate groups', async () => {
    expect(sim.wsUri).toMatch(/^ws:\/\/127\.0\.0\.1:\d+\/[^/]+$/)
    const vm = (await raw.call('getVM')).result
    expect(vm).toMatchObject({
      name: 'ChromeDebugProxy',
      targetCPU: 'Web',
      hostCPU: 'DWDS',
      architectureBits: -1,
      pid: -1,
      isolateGroups: [],
    })
    expect(vm.isolates).toEqual([{type: '@Isolate', id: '1', number: '1', name: 'main()', isSystemIsolate: false}])
    const isolate = (await raw.call('getIsolate', {isolateId: '1'})).result
    expect(isolate.isolateGroupId).toBeUndefined()
    expect(isolate.rootLib).toMatchObject({id: 'package:monitors/main.dart', uri: 'package:monitors/main.dart'})
    expect(isolate.extensionRPCs).toContain('ext.tapir.snap')
  })

  it('answers as DWDS does where the web differs from the VM', async () => {
    expect((await raw.call('getIsolateGroup', {isolateGroupId: 'x'})).error).toEqual({
      code: -32601,
      message: 'getIsolateGroup: Not supported on web devices',
    })
    expect((await raw.call('streamCancel', {streamId: 'Isolate'})).error).toEqual({
      code: -32601,
      message: 'streamCancel: Not supported on web devices',
    })
    expect((await raw.call('streamListen', {streamId: 'Isolate'})).result).toEqual({type: 'Success'})
    expect((await raw.call('streamListen', {streamId: 'Isolate'})).result).toEqual({type: 'Success'})
    expect((await raw.call('streamListen', {streamId: 'Bogus'})).error).toEqual({
      code: -32602,
      message: 'The stream `Bogus` is not supported on web devices',
    })
    expect((await raw.call('getIsolate', {isolateId: 'isolates/1'})).result).toEqual({
      type: 'Sentinel',
      kind: 'Collected',
      valueAsString: 'Unrecognized isolateId: isolates/1',
    })
    expect((await raw.call('evaluate', {isolateId: '1', targetId: 'package:monitors/main.dart', expression: '1'})).error).toEqual({
      code: -32600,
      message: 'Expression evaluation is not supported for this configuration.',
    })
    expect((await raw.call('ext.tapir.nope', {isolateId: '1'})).error).toEqual({
      code: -32601,
      message: 'Unknown service method: ext.tapir.nope',
    })
    expect((await raw.call('ext.tapir.boot_id', {})).result.bootId).toEqual(expect.any(String))
    expect((await raw.call('reloadSources', {isolateId: '1'})).result).toEqual({type: 'ReloadReport', success: true})
  })

  it('the client works against it: finds isolate "1", and after a hot restart isolate "2"', async () => {
    const app = await AppConnection.open(toWebSocketUri(sim.httpUri), 5000)
    try {
      const before = (await app.callExtension('boot_id', {}, bootAnswer, new Deadline(5000))).bootId
      await sim.restartIsolate()
      const after = (await app.callExtension('boot_id', {}, bootAnswer, new Deadline(5000))).bootId
      expect(after).not.toBe(before)
      const ids = sim.requests.filter((request) => request.method === 'ext.tapir.boot_id').map((request) => request.params.isolateId)
      expect(ids.slice(-3)).toEqual(['1', '1', '2'])
      expect(sim.violations).toEqual([])
    } finally {
      app.close()
    }
  })
})
