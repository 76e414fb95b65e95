import {afterEach, describe, expect, it} from 'vitest'
import {startSim, type SimHandle, type SimMode} from '../../src/sim/index.js'
import {RawClient, type Json} from './server-helpers.js'

const decode = (event: Json): string => Buffer.from(event.bytes as string, 'base64').toString('utf8')

let sim: SimHandle | undefined
let client: RawClient | undefined
afterEach(async () => {
  client?.socket.close()
  await sim?.close()
  sim = client = undefined
})

/** A sim of the Monitors app, a client listening to the streams developer calls reach, and the
 *  failed sign-in that logs (developer.log), prints (debugPrint) and shows an error text. */
async function signInRefused(mode: SimMode): Promise<{client: RawClient; isolateId: string}> {
  sim = await startSim({mode})
  client = await RawClient.open(sim.wsUri, {followRedirects: true})
  for (const streamId of ['Logging', 'Stdout', 'Extension']) await client.call('streamListen', {streamId})
  const isolateId = (await client.call('getVM')).result.isolates[0].id as string
  await client.call('ext.tapir.snap', {isolateId, includeSnapshot: 'false'})
  await client.call('ext.tapir.tap', {isolateId, ref: 'e4', includeSnapshot: 'false'})
  await client.call('ext.tapir.navigate', {isolateId, route: '/settings', includeSnapshot: 'false'})
  await client.waitFor((message) => message.params?.event?.extensionKind === 'Flutter.Navigation')
  return {client, isolateId}
}

describe('the events of what the app logs, prints and posts, as the VM shapes them', () => {
  it('Logging: a LogRecord whose strings are VM @Instances under ring ids, and Null instances for zone, error, stack', async () => {
    const {client, isolateId} = await signInRefused('vm')
    const [log] = client.events('Logging')
    expect(log).toMatchObject({
      type: 'Event',
      kind: 'Logging',
      isolate: {id: isolateId},
      isolateGroup: {type: '@IsolateGroup'},
      logRecord: {
        type: 'LogRecord',
        sequenceNumber: 0,
        level: 900,
        time: expect.any(Number),
        loggerName: {type: '@Instance', kind: 'String', id: expect.stringMatching(/^objects\/\d+$/), valueAsString: 'monitors.auth'},
        message: {kind: 'String', class: {name: '_OneByteString'}, valueAsString: 'sign-in refused: incomplete credentials'},
        zone: {kind: 'Null', id: 'objects/null'},
        error: {kind: 'Null'},
        stackTrace: {kind: 'Null'},
      },
    })
  })

  it('Stdout: a print is two writes, the text and its newline', async () => {
    const {client} = await signInRefused('vm')
    expect(client.events('Stdout').map(decode)).toEqual(['Sign-in refused: email or password missing', '\n'])
    expect(client.events('Stdout')[0]).toMatchObject({kind: 'WriteEvent', isolateGroup: {type: '@IsolateGroup'}})
  })

  it('Extension: the raw VM leaves __destinationStream in the data, DDS strips it', async () => {
    const raw = (await signInRefused('vm')).client
    const navigation = raw.events('Extension').find((event) => event.extensionKind === 'Flutter.Navigation')
    expect(navigation).toMatchObject({
      kind: 'Extension',
      isolateGroup: {type: '@IsolateGroup'},
      extensionData: {route: {description: '/settings', settings: {name: '/settings'}}, __destinationStream: 'Extension'},
    })
    const error = raw.events('Extension').find((event) => event.extensionKind === 'Flutter.Error')
    expect(error?.extensionData).toMatchObject({
      description: 'Exception caught by rendering library',
      errorsSinceReload: 0,
      renderedErrorText: expect.stringMatching(/^══╡ EXCEPTION CAUGHT BY RENDERING LIBRARY ╞═+\n.*\nA RenderFlex overflowed by \d+ pixels/),
    })
    raw.socket.close()
    await sim!.close()

    const dds = (await signInRefused('dds')).client
    const stripped = dds.events('Extension').find((event) => event.extensionKind === 'Flutter.Navigation')
    expect(stripped?.extensionData).toEqual({route: {description: '/settings', settings: {name: '/settings'}}})
  })
})
