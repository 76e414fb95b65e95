import {writeFileSync} from 'node:fs'
import {join} from 'node:path'
import type {Client} from '@modelcontextprotocol/sdk/client/index.js'
import type {Progress} from '@modelcontextprotocol/sdk/types.js'
import {afterAll, beforeAll, describe, expect, it} from 'vitest'
import {startSim} from '../../src/sim/index.js'
import {flutterProject} from '../helpers/flutter-project.js'
import {expectNoProcessLeft} from '../helpers/leftovers.js'
import {mcpClientIn} from '../helpers/mcp.js'

type Block = {type: string; text?: string; data?: string; mimeType?: string}
type Answer = {isError?: boolean; content: Block[]}
const textOf = (result: Answer) => result.content.find((block) => block.type === 'text')!.text!
/** An error result's human message: its text up to the error object. */
const messageOf = (result: Answer) => textOf(result).split('\n').slice(0, -1).join('\n')

expectNoProcessLeft()

/** The MCP SDK's client on `tapir mcp:serve`, run in a Flutter project with no session yet, as
 *  an agent's MCP client runs it: nothing but MCP from here on. */
async function agent(
  p: ReturnType<typeof flutterProject>,
  extra: Record<string, string> = {},
): Promise<{client: Client; call(name: string, args?: object, onprogress?: (p: Progress) => void): Promise<Answer>}> {
  const client = await mcpClientIn(p, extra)
  const call = async (name: string, args: object = {}, onprogress?: (progress: Progress) => void) =>
    (await client.callTool({name, arguments: args as Record<string, unknown>}, undefined, {
      timeout: 120_000,
      ...(onprogress ? {onprogress} : {}),
    })) as Answer
  return {client, call}
}

describe('an agent with only MCP: devices, start the sim, sign in, see it, hit a dead end, stop', () => {
  const p = flutterProject()
  let session: Awaited<ReturnType<typeof agent>>
  beforeAll(async () => {
    session = await agent(p)
  })
  afterAll(async () => {
    await session.call('tapir_stop')
    await session.client.close()
    p.dir.remove()
  })

  it('does the whole task through MCP, with no shell', async () => {
    const {call} = session
    const none = await call('tapir_snap')
    expect(none.isError).toBe(true)
    expect(messageOf(none)).toMatch(/Call tapir_start first \(device "sim".*tapir_attach/)

    const devices = JSON.parse(textOf(await call('tapir_devices'))) as {devices: Array<{id: string}>}
    expect(devices.devices.map((device) => device.id)).toEqual(['sim', 'linux', 'chrome', 'web-server'])

    const started = await call('tapir_start', {device: 'sim'})
    expect(started.isError, textOf(started)).toBeFalsy()
    expect(JSON.parse(textOf(started))).toMatchObject({pid: expect.any(Number), vmServiceUri: expect.not.stringMatching(/=\//)})
    expect(JSON.parse(textOf(await call('tapir_status')))).toMatchObject({device: 'sim', answering: true, tapir: true})

    const refOf = async (args: object) => (JSON.parse(textOf(await call('tapir_find', args))) as {ref: string}).ref
    expect((await call('tapir_fill', {ref: await refOf({key: 'email'}), text: 'ada@example.com'})).isError).toBeFalsy()
    expect((await call('tapir_fill', {ref: await refOf({key: 'password'}), text: 'hunter22'})).isError).toBeFalsy()
    expect((await call('tapir_tap', {ref: await refOf({key: 'signIn'})})).isError).toBeFalsy()
    expect(JSON.parse(textOf(await call('tapir_wait_for', {text: 'Monitors'})))).toMatchObject({matched: true})

    const shot = await call('tapir_screenshot')
    expect(shot.content.map((block) => block.type).sort()).toEqual(['image', 'text'])
    expect(shot.content.find((block) => block.type === 'image')!.mimeType).toBe('image/jpeg')

    await call('tapir_navigate', {route: '/settings'})
    const refused = await call('tapir_tap', {ref: await refOf({text: 'Sync now'})})
    expect(refused.isError).toBe(true)
    // What to do, read from the refusal itself: where it is, why no scroll helps, what would.
    expect(messageOf(refused)).toMatch(
      /off-viewport \(rect=.*\)\. q\d+ lies 4 px past the right edge of the viewport \(its far edge 100 px out\)\. The app scrolled what encloses it before refusing, so no Scrollable brings it in along x\. A RenderFlex overflow the app reported \(116 px on the right\) covers that spot: no gesture can reach it until the layout is fixed \(tapir_exceptions shows the overflow\)\.$/,
    )
    expect(JSON.parse(textOf(refused).split('\n').at(-1)!)).toMatchObject({
      error: {
        exitCode: 3,
        envelope: {type: 'off_viewport'},
        offViewport: {side: 'right', gapPx: 4, axis: 'x', scrollable: false, overflowPx: 116},
      },
    })
    const shown = (JSON.parse(textOf(await call('tapir_snap'))) as {snapshot: string}).snapshot
    const syncNow = /button "Sync now" \[ref=(e\d+)\]/.exec(shown)![1]!
    const intoView = await call('tapir_scroll', {ref: syncNow, intoView: true, includeSnapshot: false})
    expect(intoView.isError).toBe(true)
    // An error result's last line is its error object (docs/mcp.md); the answer comes before it.
    const answerText = textOf(intoView)
    expect(JSON.parse(answerText.slice(answerText.lastIndexOf('\n') + 1))).toMatchObject({error: {message: expect.any(String)}})
    expect(JSON.parse(answerText.slice(0, answerText.lastIndexOf('\n')))).toMatchObject({
      inViewport: false,
      outside: {side: 'right', gapPx: 4},
      note: `${syncNow} lies 4 px past the right edge of the viewport (its far edge 100 px out) after the scroll: no Scrollable around it brings it in along x.`,
    })

    const stopped = await call('tapir_stop')
    expect(stopped.isError, textOf(stopped)).toBeFalsy()
    expect(JSON.parse(textOf(stopped))).toMatchObject({stopped: [expect.any(Number)]})
    expect(messageOf(await call('tapir_snap'))).toContain('Call tapir_start first')
  }, 120_000)
})

describe('tapir_start and tapir_attach over MCP', () => {
  const p = flutterProject()
  let session: Awaited<ReturnType<typeof agent>>
  beforeAll(async () => {
    session = await agent(p)
  })
  afterAll(async () => {
    await session.call('tapir_stop')
    await session.client.close()
    p.dir.remove()
  })

  it('sends progress notifications while flutter builds, answers once the app answers, and tapir_stop ends it', async () => {
    const heard: Progress[] = []
    const started = await session.call('tapir_start', {device: 'linux', bootTimeout: 60}, (progress) => heard.push(progress))
    expect(started.isError, textOf(started)).toBeFalsy()
    expect(JSON.parse(textOf(started))).toMatchObject({device: 'linux', supervisorPid: expect.any(Number)})
    expect(heard.map((progress) => progress.message)).toContainEqual(expect.stringContaining('Building linux application'))
    expect(JSON.parse(textOf(await session.call('tapir_snap')))).toMatchObject({snapshot: expect.stringContaining('[ref=e')})
    const again = await session.call('tapir_start', {device: 'sim'})
    expect(messageOf(again)).toMatch(/still running for this project \(pid \d+\)\. Call tapir_stop first\.$/)
    expect((await session.call('tapir_stop')).isError).toBeFalsy()
  }, 120_000)

  it('words what it refuses in its own parameter names', async () => {
    expect(messageOf(await session.call('tapir_start', {device: 'sim', faults: ['nope=1']}))).toMatch(/^faults: Unknown fault knob "nope"/)
    expect(messageOf(await session.call('tapir_start', {device: 'sim', flutterArgs: ['--flavor=dev']}))).toBe(
      'flutterArgs need a real device, not device "sim".',
    )
    expect(messageOf(await session.call('tapir_start', {device: 'linux', faults: ['package=dusk']}))).toBe(
      'faults are for the simulated app (device "sim").',
    )
  })

  it('tapir_attach records an app started elsewhere; tapir_doctor checks it; tapir_stop removes the session and signals nothing', async () => {
    const sim = await startSim()
    try {
      const attached = await session.call('tapir_attach', {uri: sim.httpUri})
      expect(attached.isError, textOf(attached)).toBeFalsy()
      expect(JSON.parse(textOf(attached))).toMatchObject({answering: true, tapir: true})
      expect(JSON.parse(textOf(await session.call('tapir_snap')))).toMatchObject({snapshot: expect.stringContaining('[ref=e')})
      const doctor = JSON.parse(textOf(await session.call('tapir_doctor'))) as {checks: Array<{name: string; ok: boolean}>}
      expect(doctor.checks.length).toBeGreaterThan(2)
      expect(JSON.parse(textOf(await session.call('tapir_stop')))).toMatchObject({stopped: []})
      expect(p.session()).toBeUndefined()
    } finally {
      await sim.close()
    }
  })
})

describe('what tapir_start started belongs to the session, not to the server', () => {
  const p = flutterProject()
  afterAll(() => p.dir.remove())

  it('outlives the server that started it, and the next server stops it with tapir_stop', async () => {
    const first = await agent(p)
    const started = JSON.parse(textOf(await first.call('tapir_start', {device: 'sim'}))) as {pid: number}
    await first.client.close()
    const second = await agent(p)
    try {
      expect(JSON.parse(textOf(await second.call('tapir_status')))).toMatchObject({pid: started.pid, answering: true})
      expect(JSON.parse(textOf(await second.call('tapir_stop')))).toMatchObject({stopped: [started.pid]})
      expect(p.session()).toBeUndefined()
    } finally {
      await second.client.close()
    }
  }, 60_000)
})

describe('progress over MCP is what the CLI would print', () => {
  it('hides the VM Service token of a failed start and keeps each line terminal-safe', async () => {
    const p = flutterProject()
    // A flutter that printed its VM Service address and a control character on stderr, then died.
    const flutter = join(p.dir.path, 'dying-flutter')
    writeFileSync(
      flutter,
      [
        '#!/bin/sh',
        'echo "A Dart VM Service on linux is available at: http://127.0.0.1:4567/SECRETTOKEN0=/" >&2',
        'printf "Lost connection to device.\\033[2J\\n" >&2',
        // Long enough for tapir to record it as its own child before it ends.
        'sleep 2',
        'exit 1',
        '',
      ].join('\n'),
      {mode: 0o755},
    )
    const session = await agent(p, {TAPIR_FLUTTER_BIN: flutter})
    try {
      const heard: Progress[] = []
      const started = await session.call('tapir_start', {device: 'linux', bootTimeout: 30}, (progress) => heard.push(progress))
      expect(started.isError).toBe(true)
      const said = [...heard.map((progress) => progress.message ?? ''), textOf(started)].join('\n')
      expect(said).toContain('available at: http://127.0.0.1:4567/***/')
      expect(said).not.toContain('SECRETTOKEN0')
      expect(said).not.toContain('\u001b')
    } finally {
      await session.client.close()
      p.dir.remove()
    }
  }, 60_000)
})

describe('a tapir_start the agent cancels', () => {
  it('ends what it started, removes the session, and the next call is answered at once', async () => {
    const p = flutterProject()
    const session = await agent(p, {FAKE_FLUTTER_BUILD: 'hang'})
    try {
      const building = new AbortController()
      const call = session.client.callTool({name: 'tapir_start', arguments: {device: 'linux', bootTimeout: 120}}, undefined, {
        signal: building.signal,
        timeout: 120_000,
        onprogress: (progress) => {
          if (progress.message?.includes('Building linux application')) building.abort()
        },
      })
      await expect(call).rejects.toThrow(/abort/i)
      // The server answers each call once the one before it is done: the start's undo.
      const status = await session.call('tapir_status')
      expect(textOf(status)).toContain('No running Flutter app')
      expect(p.session()).toBeUndefined()
      expect(p.socketFolders()).toEqual([])
    } finally {
      await session.client.close()
      p.dir.remove()
    }
  }, 120_000)
})
