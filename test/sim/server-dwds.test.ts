import {afterAll, beforeAll, describe, expect, it} from 'vitest'
import {AppConnection} from '../../src/lib/vm/app-connection.js'
import {Deadline} from '../../src/lib/vm/deadline.js'
import {bootAnswer} from '../../src/lib/vm/tapir-answers.js'
import {toWebSocketUri} from '../../src/lib/vm/uri.js'
import {startSim, type SimHandle} from '../../src/sim/index.js'
import {httpGet, RawClient, refusedUpgrade, type Json} from './server-helpers.js'

const decode = (event: Json): string => Buffer.from(event.bytes as string, 'base64').toString('utf8')

describe('the sim in dwds-direct mode: the debug service of a Flutter web app, no DDS', () => {
  let sim: SimHandle
  let raw: RawClient
  beforeAll(async () => {
    sim = await startSim({mode: 'dwds-direct'})
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
    expect((await raw.call('ext.tapir.nope', {isolateId: '1'})).error).toEqual({
      code: -32601,
      message: 'Unknown service method: ext.tapir.nope',
    })
    expect((await raw.call('ext.tapir.boot_id', {})).result.bootId).toEqual(expect.any(String))
    expect((await raw.call('reloadSources', {isolateId: '1'})).result).toEqual({type: 'ReloadReport', success: true})
  })

  it("keeps one registry of services for its clients, as vm_service's server does without DDS: bare names, announced after the listen reply", async () => {
    const tool = await RawClient.open(sim.wsUri)
    try {
      expect((await tool.call('registerService', {service: 'flutterVersion', alias: 'Flutter Tools'})).result).toEqual({type: 'Success'})
      expect((await raw.call('registerService', {service: 'flutterVersion', alias: 'Other'})).error).toEqual({
        code: 111,
        message: 'Service already registered',
      })
      const before = raw.frames.length
      expect((await raw.call('streamListen', {streamId: 'Service'})).result).toEqual({type: 'Success'})
      await raw.waitFor((message) => message.params?.event?.service === 'flutterVersion')
      const after = raw.frames.slice(before).map((frame) => JSON.parse(frame) as Json)
      expect(after[0]).toMatchObject({result: {type: 'Success'}}) // the announcements follow the reply
      const announced = after.slice(1).map((message) => message.params.event)
      expect(announced.map((event) => [event.kind, event.service, event.method])).toEqual(
        expect.arrayContaining([
          ['ServiceRegistered', 'hotRestart', 'hotRestart'],
          ['ServiceRegistered', 'fullReload', 'fullReload'],
          ['ServiceRegistered', 'flutterVersion', 'flutterVersion'],
        ]),
      )
      for (const event of announced) expect(event).not.toHaveProperty('alias')

      // A call by a registered bare name goes to its owner, and the owner's answer comes back.
      const relayed = raw.call('flutterVersion', {})
      const asked = await tool.waitFor((message) => message.method === 'flutterVersion')
      tool.sendText(JSON.stringify({jsonrpc: '2.0', id: asked.id, result: {type: 'Success', frameworkVersion: '3.35.0'}}))
      expect((await relayed).result).toEqual({type: 'Success', frameworkVersion: '3.35.0'})
      // DWDS's own methods come first: a service named reloadSources is never reached by that name.
      expect((await tool.call('registerService', {service: 'reloadSources', alias: 'Flutter Tools'})).result).toEqual({type: 'Success'})
      expect((await raw.call('reloadSources', {isolateId: '1'})).result).toEqual({type: 'ReloadReport', success: true})

      tool.close()
      const gone = await raw.waitFor((message) => message.params?.event?.kind === 'ServiceUnregistered')
      expect(gone.params.event).toMatchObject({
        service: expect.stringMatching(/^(flutterVersion|reloadSources)$/),
        method: gone.params.event.service,
      })
    } finally {
      tool.close()
    }
  })

  it('evaluates through the expression compiler: web-shaped references, and @Error results (kind error) for compile errors and throws', async () => {
    const evaluate = async (expression: string, targetId = 'package:monitors/main.dart') =>
      (await raw.call('evaluate', {isolateId: '1', targetId, expression})).result
    expect(await evaluate('1 + 2')).toEqual({
      type: '@Instance',
      kind: 'Double',
      id: 'objects/int-3',
      identityHashCode: expect.any(Number),
      class: {
        type: '@Class',
        id: 'classes|dart:core|Double',
        name: 'Double',
        library: {type: '@Library', id: 'dart:core', name: 'dart:core', uri: 'dart:core'},
      },
      valueAsString: '3',
    })
    expect(await evaluate("currentRoute + '!'")).toMatchObject({
      kind: 'String',
      id: '#StringInstanceRef#/login!',
      class: {id: 'classes|dart:core|String'},
      valueAsString: '/login!',
      length: 7,
    })
    expect(await evaluate('Auth.user?.email')).toMatchObject({kind: 'Null', id: 'objects/null', valueAsString: 'null'})
    expect(await evaluate('monitors')).toMatchObject({
      kind: 'List',
      id: JSON.stringify({injectedScriptId: 1, id: 1}),
      class: {name: 'JSArray<Monitor>'},
      length: 20,
    })
    expect(await evaluate('foo')).toEqual({
      type: '@Error',
      kind: 'error',
      message: "CompilationError: Undefined name 'foo'.\nfoo\n^^^",
      id: expect.any(String),
    })
    expect(await evaluate("throw StateError('boom')")).toMatchObject({type: '@Error', kind: 'error', message: 'Error: Bad state: boom'})
    expect(await evaluate('1', 'objects/7')).toMatchObject({
      type: '@Error',
      kind: 'error',
      message: 'Evaluate is called on an unsupported target:objects/7',
    })
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

describe('the sim in dwds mode: DWDS behind DDS, as flutter run -d chrome runs it', () => {
  let sim: SimHandle
  let client: RawClient
  beforeAll(async () => {
    sim = await startSim({mode: 'dwds', flutterTool: true})
    client = await RawClient.open(sim.wsUri)
  })
  afterAll(async () => {
    client.socket.close()
    await sim.close()
  })

  it('advertises the DDS address; DWDS itself refuses every client with a 403 naming DDS', async () => {
    expect(sim.httpUri).toBe(sim.ddsHttpUri)
    expect(sim.wsUri).toBe(`${sim.ddsHttpUri!.replace('http:', 'ws:')}ws`)
    expect(await refusedUpgrade(sim.dwdsWsUri!)).toBe(403)
    const direct = await httpGet(sim.dwdsWsUri!.replace('ws:', 'http:'))
    expect(direct).toMatchObject({
      status: 403,
      body: `Cannot connect directly to the VM service as a Dart Development Service (DDS) instance has taken control and can be found at ${sim.ddsHttpUri}.`,
    })
    expect((await client.call('getVM')).result).toMatchObject({name: 'ChromeDebugProxy', isolates: [{id: '1'}]})
    expect((await client.call('getDartDevelopmentServiceVersion')).result).toMatchObject({type: 'Version'})
    expect((await client.call('getSupportedProtocols')).result.protocols.map((p: Json) => p.protocolName)).toContain('DDS')
  })

  it('lists the services flutter run and DWDS registered with DDS: reloadSources, and DWDS hotRestart and fullReload', async () => {
    expect((await client.call('streamListen', {streamId: 'Service'})).result).toEqual({type: 'Success'})
    const registered = client.events('Service').map((event) => [event.service, event.alias, event.method])
    expect(registered).toEqual(
      expect.arrayContaining([
        ['reloadSources', 'Flutter Tools', expect.stringMatching(/^s\d+\.reloadSources$/)],
        ['hotRestart', 'DWDS', expect.stringMatching(/^s\d+\.hotRestart$/)],
        ['fullReload', 'DWDS', expect.stringMatching(/^s\d+\.fullReload$/)],
      ]),
    )
    expect(registered.map(([service]) => service)).not.toContain('compileExpression')
    // DDS takes any stream it does not know as a custom one, and errors carry the request.
    expect((await client.call('streamListen', {streamId: 'Bogus'})).result).toEqual({type: 'Success'})
    expect((await client.call('getIsolateGroup', {isolateGroupId: 'x'})).error).toMatchObject({
      code: -32601,
      data: {request: {method: 'getIsolateGroup'}},
    })
  })

  it('carries web-shaped Logging, Extension and Stdout events, and replays them to a later listener', async () => {
    for (const streamId of ['Logging', 'Extension', 'Stdout']) await client.call('streamListen', {streamId})
    await client.call('ext.tapir.snap', {isolateId: '1', includeSnapshot: 'false'})
    await client.call('ext.tapir.tap', {isolateId: '1', ref: 'e4', includeSnapshot: 'false'})
    const log = await client.waitFor((message) => message.params?.streamId === 'Logging')
    expect(log.params.event).toEqual({
      type: 'Event',
      kind: 'Logging',
      isolate: {type: '@Isolate', id: '1', number: '1', name: 'main()', isSystemIsolate: false},
      timestamp: expect.any(Number),
      logRecord: {
        type: 'LogRecord',
        message: expect.objectContaining({kind: 'String', id: '#StringInstanceRef#sign-in refused: incomplete credentials'}),
        time: log.params.event.timestamp,
        level: 900,
        sequenceNumber: 0,
        loggerName: expect.objectContaining({
          kind: 'String',
          valueAsString: 'monitors.auth',
          class: expect.objectContaining({id: 'classes|dart:core|String'}),
        }),
        zone: expect.objectContaining({kind: 'Null', id: 'objects/null'}),
        error: expect.objectContaining({kind: 'Null'}),
        stackTrace: expect.objectContaining({kind: 'Null'}),
      },
    })
    const printed = await client.waitFor((message) => message.params?.streamId === 'Stdout')
    expect(decode(printed.params.event)).toBe('Sign-in refused: email or password missing\n')
    expect(client.events('Stdout')).toHaveLength(1)

    await client.call('ext.tapir.navigate', {isolateId: '1', route: '/settings', includeSnapshot: 'false'})
    const posted = await client.waitFor((message) => message.params?.event?.extensionKind === 'Flutter.Navigation')
    expect(posted.params.event).toEqual({
      type: 'Event',
      kind: 'Extension',
      isolate: expect.objectContaining({id: '1'}),
      timestamp: expect.any(Number),
      extensionKind: 'Flutter.Navigation',
      extensionData: {route: {description: '/settings', settings: {name: '/settings'}}},
    })
    expect(posted.params.event).not.toHaveProperty('isolateGroup')
    // Structured errors are off on the web (widget_inspector.dart `isStructuredErrorsEnabled`,
    // default `!kIsWeb`): the overflow is printed, never posted as Flutter.Error.
    const overflow = await client.waitFor(
      (message) => message.params?.streamId === 'Stdout' && /RENDERING LIBRARY/.test(decode(message.params.event)),
    )
    expect(decode(overflow.params.event)).toContain('A RenderFlex overflowed by 116 pixels on the right.')
    expect(client.events('Extension').filter((event) => event.extensionKind === 'Flutter.Error')).toEqual([])

    const later = await RawClient.open(sim.wsUri)
    try {
      await later.call('streamListen', {streamId: 'Logging'})
      expect(later.events('Logging').map((event) => event.logRecord.loggerName.valueAsString)).toEqual(['monitors.auth'])
    } finally {
      later.socket.close()
    }
  })

  it('hot restart through DWDS starts the page anew as isolate "2"; its events name no isolate group', async () => {
    await client.call('streamListen', {streamId: 'Isolate'})
    const method = client.events('Service').find((event) => event.service === 'hotRestart')!.method as string
    expect((await client.call('hotRestart', {})).result).toBeUndefined() // only DDS's s<n>. name reaches it
    expect((await client.call(method, {})).result).toEqual({type: 'Success'})
    const started = await client.waitFor((message) => message.params?.event?.kind === 'IsolateStart')
    expect(started.params.event.isolate).toMatchObject({id: '2'})
    expect(started.params.event).not.toHaveProperty('isolateGroup')
    expect(sim.violations).toEqual([])
  })
})
