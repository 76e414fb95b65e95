import {describe, expect, it} from 'vitest'
import {type SimOptions} from '../../src/sim/index.js'
import type {RawClient, Json} from './server-helpers.js'
import {simPerTest} from './server-helpers.js'

const t = simPerTest()
const connect = (options: SimOptions = {}) => t.connect(options, {followRedirects: true})

describe('framing', () => {
  it.each([
    ['a binary frame', (client: RawClient) => client.socket.send(Buffer.from('{}')), 4001, 'Message must be a string.'],
    ['invalid JSON', (client: RawClient) => client.sendText('{"id":'), 4000, /^Message parse error: /],
    [
      'a batch',
      (client: RawClient) => client.sendText('[{"jsonrpc":"2.0","id":"1","method":"getVM"}]'),
      4002,
      'Message must be a JSON map.',
    ],
  ])('closes the socket on %s and notes the violation', async (_name, send, code, reason) => {
    const {client} = await connect()
    send(client)
    const closed = await client.closed
    expect(closed.code).toBe(code)
    expect(closed.reason).toMatch(reason)
    expect(t.sim.violations).toHaveLength(1)
  })

  it('keeps the JSON type of the id, notes numeric ids, and never answers a notification', async () => {
    const {client} = await connect()
    client.sendText(JSON.stringify({jsonrpc: '2.0', method: 'getVersion', params: {}}))
    expect((await client.call('getVersion', {}, 7)).id).toBe(7)
    expect((await client.call('getVersion', {}, '8')).id).toBe('8')
    const replies = client.frames.map((frame) => JSON.parse(frame) as Json).filter((message) => 'result' in message)
    expect(replies.map((reply) => reply.id)).toEqual(['1', 7, '8'])
    expect(t.sim.violations).toEqual([expect.stringContaining('notification'), expect.stringContaining('numeric id 7')])
  })

  it('records every request', async () => {
    const {client, isolateId} = await connect()
    await client.call('getIsolate', {isolateId})
    expect(t.sim.requests).toEqual([
      {method: 'getVM', params: {}},
      {method: 'getIsolate', params: {isolateId}},
    ])
  })
})

describe('VM and isolate methods', () => {
  it('answers getVM, getIsolate and getIsolatePauseEvent for the one main isolate', async () => {
    const {client, isolateId} = await connect()
    const vm = (await client.call('getVM')).result
    expect(vm).toMatchObject({type: 'VM', name: 'vm', targetCPU: 'arm64', architectureBits: 64})
    expect(vm.isolates).toEqual([
      {
        type: '@Isolate',
        id: isolateId,
        number: isolateId.slice('isolates/'.length),
        name: 'main',
        isSystemIsolate: false,
        isolateGroupId: expect.stringMatching(/^isolateGroups\/\d+$/),
      },
    ])
    expect(isolateId).toMatch(/^isolates\/\d+$/)
    const isolate = (await client.call('getIsolate', {isolateId})).result
    expect(isolate).toMatchObject({type: 'Isolate', id: isolateId, runnable: true, pauseEvent: {kind: 'Resume'}})
    expect(isolate.rootLib).toMatchObject({
      type: '@Library',
      id: expect.stringMatching(/^libraries\/@\d+$/),
      uri: 'package:monitors/main.dart',
    })
    expect(isolate.extensionRPCs).toEqual(expect.arrayContaining(['ext.flutter.reassemble', 'ext.tapir.ping', 'ext.tapir.boot_id']))
    expect(isolate.extensionRPCs.at(-1)).toBe('ext.tapir.boot_id')
    expect((await client.call('getIsolatePauseEvent', {isolateId})).result).toMatchObject({type: 'Event', kind: 'Resume'})
  })

  it('resolves isolates/root to the main isolate and answers getIsolateGroup', async () => {
    const {client, isolateId} = await connect()
    const isolate = (await client.call('getIsolate', {isolateId: 'isolates/root'})).result
    expect(isolate.id).toBe(isolateId)
    const group = (await client.call('getIsolateGroup', {isolateGroupId: isolate.isolateGroupId})).result
    expect(group).toMatchObject({type: 'IsolateGroup', id: isolate.isolateGroupId, isolates: [{id: isolateId}]})
    expect((await client.call('getIsolateGroup', {isolateGroupId: 'isolateGroups/1'})).result).toMatchObject({
      type: 'Sentinel',
      kind: 'Expired',
    })
  })

  it('answers reloadSources with a ReloadReport after an IsolateReload event', async () => {
    const {client, isolateId} = await connect()
    await client.call('streamListen', {streamId: 'Isolate'})
    expect((await client.call('reloadSources', {isolateId})).result).toMatchObject({type: 'ReloadReport', success: true})
    expect(client.events('Isolate')).toEqual([
      expect.objectContaining({kind: 'IsolateReload', status: 'success', isolate: expect.objectContaining({id: isolateId})}),
    ])
  })

  it('answers _flutter.listViews with a numeric isolate number', async () => {
    const {client, isolateId} = await connect()
    const views = (await client.call('_flutter.listViews')).result
    expect(views.type).toBe('FlutterViewList')
    expect(views.views[0].isolate).toMatchObject({id: isolateId, number: Number(isolateId.slice('isolates/'.length))})
  })

  it('refuses a malformed isolateId and answers a Collected sentinel for an unknown one', async () => {
    const {client} = await connect()
    expect((await client.call('getIsolate', {isolateId: '1'})).error).toEqual({
      code: -32602,
      message: 'Invalid params',
      data: {details: "getIsolate: invalid 'isolateId' parameter: 1"},
    })
    expect((await client.call('getIsolate', {isolateId: 'isolates/123'})).result).toEqual({
      type: 'Sentinel',
      kind: 'Collected',
      valueAsString: '<collected>',
    })
    expect((await client.call('getIsolate')).error).toMatchObject({
      code: -32602,
      data: {details: "getIsolate expects the 'isolateId' parameter"},
    })
  })

  it('answers an unknown method with -32601 and the request in data', async () => {
    const {client} = await connect()
    expect((await client.call('getEverything', {flag: true})).error).toEqual({
      code: -32601,
      message: 'Method not found',
      data: {request: {method: 'getEverything', params: {flag: 'true'}}},
    })
    expect((await client.call('getDartDevelopmentServiceVersion')).error.code).toBe(-32601)
  })

  it('maps evaluate outcomes in the root library: @Instance under a ring id, @Error result, compile error 113', async () => {
    const {client, isolateId} = await connect()
    const targetId = (await client.call('getIsolate', {isolateId})).result.rootLib.id
    const evaluate = (expression: string, target = targetId) => client.call('evaluate', {isolateId, targetId: target, expression})
    expect((await evaluate('1 + 2')).result).toEqual({
      type: '@Instance',
      kind: 'Int',
      id: 'objects/1',
      identityHashCode: 0,
      class: {
        type: '@Class',
        fixedId: true,
        id: 'classes/59',
        name: '_Smi',
        library: {type: '@Library', fixedId: true, id: 'libraries/@0150898', name: 'dart.core', uri: 'dart:core'},
      },
      valueAsString: '3',
    })
    expect((await evaluate("'x'")).result).toMatchObject({
      kind: 'String',
      id: 'objects/2',
      length: 200,
      valueAsString: 'x'.repeat(128),
      valueAsStringIsTruncated: true,
    })
    expect((await evaluate('throw')).result).toEqual({
      type: '@Error',
      kind: 'UnhandledException',
      id: 'objects/3',
      message: 'Unhandled exception:\nBad state',
    })
    expect((await evaluate('foo')).error).toEqual({
      code: 113,
      message: 'Expression compilation error',
      data: {details: "Error: Undefined name 'foo'."},
    })
    expect((await evaluate('1 + 2', 'libraries/@1')).error).toMatchObject({
      code: -32602,
      data: {details: "evaluate: invalid 'targetId' parameter: libraries/@1"},
    })
  })
})

describe('extensions', () => {
  it('hands the app a string map including isolateId and inlines its result', async () => {
    const {client, isolateId} = await connect()
    client.sendText(JSON.stringify({jsonrpc: '2.0', id: '5', method: 'ext.tapir.ping', params: {isolateId, finder: '{"key":"login"}'}}))
    await client.waitFor((message) => message.id === '5')
    expect(client.frames.at(-1)).toBe(
      `{"jsonrpc":"2.0","result":{"pong":true,"params":{"isolateId":"${isolateId}","finder":"{\\"key\\":\\"login\\"}"}},"id":"5"}`,
    )
  })

  it('maps ExtensionError codes and thrown errors as dart:developer does', async () => {
    const {client, isolateId} = await connect()
    const fail = (await client.call('ext.tapir.fail', {isolateId})).error
    expect(fail).toEqual({code: -32001, message: 'Server error', data: {details: expect.any(String)}})
    expect(JSON.parse(fail.data.details)).toMatchObject({message: 'no such widget', envelope: {type: 'not_found'}})
    expect((await client.call('ext.tapir.refuse', {isolateId})).error).toEqual({
      code: -32602,
      message: 'Invalid params',
      data: {details: 'bad finder'},
    })
    const crash = (await client.call('ext.tapir.crash', {isolateId})).error
    expect(crash).toMatchObject({code: -32000, message: 'Server error'})
    expect(crash.data.details).toMatch(/^Error: boom in crash\n\s+at /)
  })

  it('answers -32601 for an unregistered extension or one sent without isolateId', async () => {
    const {client, isolateId} = await connect()
    expect((await client.call('ext.tapir.nope', {isolateId})).error).toEqual({
      code: -32601,
      message: 'Method not found',
      data: {request: {method: 'ext.tapir.nope', params: {isolateId}}},
    })
    expect((await client.call('ext.tapir.ping')).error).toEqual({
      code: -32601,
      message: 'Method not found',
      data: {request: {method: 'ext.tapir.ping', params: {}}},
    })
  })

  it('refuses non-string params when strict, and stringifies them Dart-style when not', async () => {
    const {client, isolateId} = await connect()
    expect((await client.call('ext.tapir.ping', {isolateId, includeSnapshot: true})).error).toEqual({
      code: -32602,
      message: 'Invalid params',
      data: {details: 'tapir-sim: param "includeSnapshot" was sent as a boolean; the VM Service hands extensions strings only'},
    })
    expect(t.sim.violations).toEqual([expect.stringContaining('"includeSnapshot" sent as a boolean')])
    await t.sim.close()

    const lenient = await connect({strictParams: false})
    const reply = await lenient.client.call('ext.tapir.ping', {
      isolateId: lenient.isolateId,
      enabled: true,
      count: 1,
      list: ['x', 2],
      map: {a: 1},
    })
    expect(reply.result.params).toEqual({isolateId: lenient.isolateId, enabled: 'true', count: '1', list: '[x, 2]', map: '{a: 1}'})
    expect(t.sim.violations).toHaveLength(4)
  })

  it('runs the framework extensions it lists', async () => {
    const {client, isolateId} = await connect()
    expect((await client.call('ext.flutter.reassemble', {isolateId})).result).toEqual({})
    expect((await client.call('ext.flutter.debugPaint', {isolateId, enabled: 'true'})).result).toEqual({enabled: 'true'})
    expect((await client.call('ext.flutter.timeDilation', {isolateId})).result).toEqual({timeDilation: '1.0'})
  })
})

describe('streams and services', () => {
  it('answers 103 on a repeated listen, 104 on cancelling an unsubscribed stream, -32602 on an unknown stream', async () => {
    const {client} = await connect()
    expect((await client.call('streamListen', {streamId: 'Isolate'})).result).toEqual({type: 'Success'})
    expect((await client.call('streamListen', {streamId: 'Isolate'})).error).toEqual({code: 103, message: 'Stream already subscribed'})
    expect((await client.call('streamCancel', {streamId: 'Isolate'})).result).toEqual({type: 'Success'})
    expect((await client.call('streamCancel', {streamId: 'Isolate'})).error).toEqual({code: 104, message: 'Stream not subscribed'})
    expect((await client.call('streamListen', {streamId: 'Bogus'})).error).toEqual({
      code: -32602,
      message: 'Invalid params',
      data: {details: "streamListen: invalid 'streamId' parameter: Bogus"},
    })
  })

  it('registers services, tells other Service listeners (before their listen reply), refuses duplicates and forwards calls', async () => {
    const {client: owner} = await connect()
    const caller = await t.open(t.sim.wsUri)
    expect((await owner.call('registerService', {service: 'reloadSources', alias: 'Flutter Tools'})).result).toEqual({type: 'Success'})
    expect((await owner.call('registerService', {service: 'reloadSources', alias: 'Flutter Tools'})).error).toEqual({
      code: 111,
      message: 'Service already registered',
    })
    await caller.call('streamListen', {streamId: 'Service'}, 'listen')
    const frames = caller.frames.map((frame) => JSON.parse(frame) as Json)
    expect(frames[0].params.event).toMatchObject({
      kind: 'ServiceRegistered',
      service: 'reloadSources',
      method: 's0.reloadSources',
      alias: 'Flutter Tools',
    })
    expect(frames[1].id).toBe('listen')

    owner.socket.on('message', (data) => {
      const request = JSON.parse(data.toString()) as Json
      if (request.method === 'reloadSources')
        owner.sendText(JSON.stringify({jsonrpc: '2.0', id: request.id, result: {type: 'Success', echoed: request.params}}))
    })
    expect((await caller.call('s0.reloadSources', {isolateId: 'isolates/1'})).result).toEqual({
      type: 'Success',
      echoed: {isolateId: 'isolates/1'},
    })
    expect((await caller.call('s0.nothing')).error).toMatchObject({code: -32601, data: {details: 'Unknown service: s0.nothing'}})
    owner.close()
    await caller.waitFor((message) => message.params?.event?.kind === 'ServiceUnregistered')
  })
})

describe('dds mode errors and streams', () => {
  it('puts the whole original request in data.request, and accepts any stream id', async () => {
    const {client, isolateId} = await connect({mode: 'dds'})
    const request = {jsonrpc: '2.0', id: '9', method: 'ext.tapir.fail', params: {isolateId}}
    client.sendText(JSON.stringify(request))
    const reply = await client.waitFor((message) => message.id === '9')
    expect(reply.error).toMatchObject({code: -32001, data: {details: expect.any(String), request}})
    expect((await client.call('ext.tapir.nope', {isolateId})).error.data.request).toEqual({method: 'ext.tapir.nope', params: {isolateId}})
    expect((await client.call('streamListen', {streamId: 'MyCustomStream'})).result).toEqual({type: 'Success'})
    const protocols = (await client.call('getSupportedProtocols')).result.protocols.map((protocol: Json) => protocol.protocolName)
    expect(protocols).toEqual(['VM Service', 'DDS'])
  })
})
