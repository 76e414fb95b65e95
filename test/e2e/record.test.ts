import {existsSync, readFileSync, renameSync, symlinkSync, writeFileSync} from 'node:fs'
import {join} from 'node:path'
import type {Client} from '@modelcontextprotocol/sdk/client/index.js'
import {afterAll, beforeAll, describe, expect, it} from 'vitest'
import {tempDir} from '../helpers/cli.js'
import {mcpClient} from '../helpers/mcp.js'
import {refOf, signIn, simSession, type SimSession} from '../helpers/sim.js'

const PASSWORD = "hunter$22 'x'"
const EMAIL = 'ada@example.com'

type Content = Array<{type: string; text: string}>
const textOf = (result: unknown) => (result as {content: Content}).content[0]!.text
const isError = (result: unknown) => (result as {isError?: boolean}).isError === true
/** The step lines of a recording: what tapir:run runs of it. */
const stepsOf = (text: string) => text.split('\n').filter((line) => line.trim() !== '' && !line.startsWith('#'))
/** A test that spawns a dozen CLI processes and two sims: on a loaded machine that takes a while. */
const SLOW = 240_000
/** An eN or qN ref anywhere in the text. */
const REF = /\b[eq]\d+\b/

async function snapshotOf(client: Client): Promise<string> {
  const text = textOf(await client.callTool({name: 'tapir_snap', arguments: {}}))
  try {
    return (JSON.parse(text) as {snapshot: string}).snapshot
  } catch {
    return text
  }
}

async function routeOf(s: SimSession): Promise<string> {
  const result = await s.spawn(['tapir:get_routes'])
  expect(result.exitCode, result.stderr).toBe(0)
  return (JSON.parse(result.stdout) as {uri: string}).uri
}

/** This file's scratch folder, made when a test first needs it (a filtered run makes none). */
let scratchDir: {path: string; remove(): void} | undefined
const scratch = () => (scratchDir ??= tempDir('tapir-record-')).path
afterAll(() => scratchDir?.remove())

describe('recording a flow and replaying it', () => {
  let mcpFile = ''
  let cliFile = ''

  beforeAll(async () => {
    mcpFile = join(scratch(), 'mcp-login.tapir')
    cliFile = join(scratch(), 'cli-login.tapir')
    // The login flow through MCP with eN refs only, recorded by mcp:serve --record.
    const s = await simSession()
    const client = await mcpClient(s.state, ['--record', mcpFile])
    try {
      const snapshot = await snapshotOf(client)
      const call = (name: string, args: Record<string, unknown>) => client.callTool({name, arguments: args})
      expect(isError(await call('tapir_observe', {}))).toBe(false)
      expect(isError(await call('tapir_tap', {ref: 'e999'}))).toBe(true)
      expect(isError(await call('tapir_fill', {ref: refOf(snapshot, /textbox "Email"/), text: EMAIL}))).toBe(false)
      expect(isError(await call('tapir_fill', {ref: refOf(snapshot, /textbox "Password"/), text: PASSWORD}))).toBe(false)
      expect(textOf(await call('tapir_wait_for', {text: 'Never there', timeoutMs: 50}))).toContain('"matched":false')
      const tapped = await call('tapir_tap', {ref: refOf(snapshot, /button "Sign in"/), until: 'Monitors'})
      expect(textOf(tapped)).toContain('"untilMatched":true')
    } finally {
      await client.close()
      await s.close()
    }
  })

  it('writes no eN/qN ref and no password, with a header and a comment per step', () => {
    const text = readFileSync(mcpFile, 'utf8')
    expect(text).not.toMatch(REF)
    expect(text).not.toContain(PASSWORD)
    expect(text).not.toContain('hunter')
    const [first, recorded, appPackage, needs] = text.split('\n')
    expect(first).toMatch(/^# tapir recording/)
    expect(recorded).toMatch(/^# recorded \d{4}-\d\d-\d\dT[\d:.]+Z with tapir \d+\.\d+\.\d+/)
    expect(appPackage).toBe('# app package: tapir')
    expect(needs).toBe('# replay needs: TAPIR_SECRET_PASSWORD (read from the environment; never written here)')
    // Every action is a step, each widget named from the snapshot the session saw; the button
    // shares "Sign in" with the heading, and find picks the button (the first control of them).
    expect(stepsOf(text)).toEqual([
      'find --semanticsLabel=Email --as=email',
      `fill --ref=@email --text=${EMAIL}`,
      'find --semanticsLabel=Password --as=password',
      'fill --ref=@password --text=${env.TAPIR_SECRET_PASSWORD}',
      "find --semanticsLabel='Sign in' --as=sign_in --matches=2",
      'tap --ref=@sign_in',
      'wait --text=Monitors --timeoutMs=3000',
    ])
    // Each step says the call it came from; reads, failures and a wait that did not match are not steps.
    expect(text.match(/^# from MCP tapir_/gm)).toHaveLength(3)
    expect(text).toContain('# from MCP tapir_fill {"ref":"@password","text":"${env.TAPIR_SECRET_PASSWORD}"}')
    expect(text).not.toMatch(/observe|Never there/)
  })

  it('replays on a fresh app to the Monitors screen (exit 0), the secret from the environment and shown nowhere', async () => {
    const s = await simSession()
    try {
      const replay = await s.spawn(['tapir:run', '--file', mcpFile], {env: {TAPIR_SECRET_PASSWORD: PASSWORD}})
      expect(replay.exitCode, replay.stderr).toBe(0)
      expect(replay.stdout).toContain('[7/7] wait --text=Monitors --timeoutMs=3000 ok')
      expect(`${replay.stdout}${replay.stderr}`).not.toContain('hunter')
      expect(await routeOf(s)).toBe('/monitors')

      // From the wrong screen (already signed in): exit 3, naming the first failing line.
      const again = await s.spawn(['tapir:run', '--file', mcpFile], {env: {TAPIR_SECRET_PASSWORD: PASSWORD}})
      const line = readFileSync(mcpFile, 'utf8').split('\n').indexOf('find --semanticsLabel=Email --as=email') + 1
      expect(again.exitCode).toBe(3)
      expect(again.stderr).toContain(`✗ step 1 (line ${line}) failed (exit 3): find --semanticsLabel=Email --as=email`)
      expect(again.stderr).toContain('found no widget for @email')
    } finally {
      await s.close()
    }
  })

  it('refuses to replay without the secret variable, before any step runs (exit 1)', async () => {
    const s = await simSession()
    try {
      const result = await s.spawn(['tapir:run', '--file', mcpFile])
      expect(result.exitCode).toBe(1)
      expect(result.stderr).toMatch(
        /^✗ step 4 \(line \d+\) \(fill --ref=@password --text=\$\{env.TAPIR_SECRET_PASSWORD\}\): environment variable TAPIR_SECRET_PASSWORD is not set/,
      )
      expect(result.stdout).toBe('')
      expect(await routeOf(s)).toBe('/login')
    } finally {
      await s.close()
    }
  })

  it(
    'records the same flow done with CLI verbs and tapir:run after tapir record start',
    async () => {
      const s = await simSession()
      try {
        const started = await s.spawn(['record', 'start', cliFile])
        expect(started.exitCode, started.stderr).toBe(0)
        const status = await s.spawn(['status'])
        expect(JSON.parse(status.stdout)).toMatchObject({recording: {file: cliFile}})
        const snapshot = (await s.spawn(['tapir:snap'])).stdout
        expect((await s.spawn(['tapir:fill', `--ref=${refOf(snapshot, /textbox "Email"/)}`, `--text=${EMAIL}`])).exitCode).toBe(0)
        const run = await s.spawn([
          'tapir:run',
          `fill --ref=${refOf(snapshot, /textbox "Password"/)} --text='${PASSWORD.replaceAll("'", `'\\''`)}'`,
          `tap --ref=${refOf(snapshot, /button "Sign in"/)} --until=Monitors`,
        ])
        expect(run.exitCode, run.stderr).toBe(0)
        const stopped = await s.spawn(['record', 'stop'])
        expect(stopped.stdout).toContain(`✓ Stopped recording into ${cliFile}`)
        expect(JSON.parse((await s.spawn(['status'])).stdout)).toMatchObject({recording: null})
      } finally {
        await s.close()
      }
      const text = readFileSync(cliFile, 'utf8')
      expect(text).not.toMatch(REF)
      expect(text).not.toContain('hunter')
      expect(stepsOf(text)).toEqual(stepsOf(readFileSync(mcpFile, 'utf8')))
      expect(text).toContain('# from CLI tapir:fill --ref=@email --text=ada@example.com')
    },
    SLOW,
  )
})

describe('a row among rows with the same label', () => {
  it(
    'is written as observe by its role and place, and a replay taps that row, not the first',
    async () => {
      const file = join(scratch(), 'pause.tapir')
      const s = await simSession()
      let after: string
      try {
        await signIn(s)
        const snapshot = (await s.spawn(['tapir:snap'])).stdout
        const second = snapshot.split('\n').filter((line) => /button "Pause"/.test(line))[1]!
        const ref = /\[ref=(e\d+)\]/.exec(second)![1]!
        expect((await s.spawn(['record', 'start', file])).exitCode).toBe(0)
        expect((await s.spawn(['tapir:snap'])).exitCode).toBe(0)
        const tapped = await s.spawn(['tapir:tap', `--ref=${ref}`])
        expect(tapped.exitCode, tapped.stderr).toBe(0)
        expect((await s.spawn(['record', 'stop'])).exitCode).toBe(0)
        after = (await s.spawn(['tapir:snap'])).stdout.replace(/ \[ref=e\d+\]/g, '')

        // A bound find that matches another count than it was written with fails its line (exit 3):
        // nineteen Pause buttons are left, the second row shows Resume now.
        const miscounted = await s.spawn(['tapir:run', 'find --semanticsLabel=Pause --as=pause', 'tap --ref=@pause'])
        expect(miscounted.exitCode).toBe(3)
        expect(miscounted.stderr).toContain('✗ step 1 failed (exit 3): find --semanticsLabel=Pause --as=pause')
        expect(miscounted.stderr).toContain('found 19 widgets for @pause, not the 1 it matched when it was written')
        expect(miscounted.stdout).not.toContain('[2/2]')
      } finally {
        await s.close()
      }
      const text = readFileSync(file, 'utf8')
      expect(text).not.toMatch(REF)
      expect(text).toMatch(/^# observe, not find: semanticsLabel "Pause" matches 20 widgets and find picks the button "Pause"$/m)
      expect(stepsOf(text)).toEqual(['observe --roles=button --as=pause --label=Pause --nth=2 --matches=20', 'tap --ref=@pause'])

      const fresh = await simSession()
      try {
        await signIn(fresh)
        const replay = await fresh.spawn(['tapir:run', '--file', file])
        expect(replay.exitCode, replay.stderr).toBe(0)
        expect((await fresh.spawn(['tapir:snap'])).stdout.replace(/ \[ref=e\d+\]/g, '')).toBe(after)
        // Run again, the second row shows Resume: the observe counts 19 Pause buttons and stops (exit 3).
        const again = await fresh.spawn(['tapir:run', '--file', file])
        expect(again.exitCode).toBe(3)
        expect(again.stderr).toContain('found 19 candidates labelled "Pause" for @pause, not the 20 there were when it was written')
      } finally {
        await fresh.close()
      }
    },
    SLOW,
  )
})

describe('the recording file', () => {
  it('cannot be redirected through a planted symbolic link, at start or while recording', async () => {
    const victim = join(scratch(), 'victim.txt')
    writeFileSync(victim, 'not yours\n')
    const link = join(scratch(), 'link.tapir')
    symlinkSync(victim, link)
    const s = await simSession()
    try {
      const refused = await s.spawn(['record', 'start', link])
      expect(refused.exitCode).toBe(1)
      expect(refused.stderr).toMatch(/^✗ Refusing to write .*link\.tapir: it is a symbolic link/)
      const other = await s.spawn(['record', 'start', victim])
      expect(other.exitCode).toBe(1)
      expect(other.stderr).toContain('it exists and is not a tapir recording tapir wrote')

      const file = join(scratch(), 'flow.tapir')
      expect((await s.spawn(['record', 'start', file])).exitCode).toBe(0)
      // Swapped for a link while recording: the next step is refused, never written through.
      renameSync(file, `${file}.old`)
      symlinkSync(victim, file)
      const snapshot = (await s.spawn(['tapir:snap'])).stdout
      const filled = await s.spawn(['tapir:fill', `--ref=${refOf(snapshot, /textbox "Email"/)}`, '--text=x@y.z'])
      expect(filled.exitCode).toBe(1)
      expect(filled.stderr).toMatch(
        /The call succeeded, but the recording .*flow\.tapir could not be written: Refusing to write .*symbolic link/,
      )
    } finally {
      await s.close()
    }
    expect(readFileSync(victim, 'utf8')).toBe('not yours\n')
  })
})

describe('the recording belongs to the session', () => {
  it('ends with tapir stop, keeping its file', async () => {
    const dir = tempDir('tapir-record-')
    const s = await simSession()
    try {
      const file = join(dir.path, 'flow.tapir')
      expect((await s.spawn(['record', 'start', file])).exitCode).toBe(0)
      const stopped = await s.spawn(['stop'])
      expect(stopped.exitCode, stopped.stderr).toBe(0)
      expect(stopped.stdout).toContain('✓ Stopped recording')
      expect(existsSync(`${s.state}.recording`)).toBe(false)
      expect(readFileSync(file, 'utf8')).toMatch(/^# tapir recording/)
    } finally {
      await s.close()
      dir.remove()
    }
  })
})

describe('tapir:run refuses before any step runs', () => {
  let s: SimSession
  beforeAll(async () => {
    s = await simSession()
  })
  afterAll(async () => {
    await s.close()
  })

  it.each([
    [['navigate --route=/settings', 'tap --ref=@unknown'], /step 2 \(tap --ref=@unknown\): @unknown is not bound/],
    [['navigate --route=/settings', 'fill --ref=e1 --text=${env.TAPIR_TEST_UNSET}'], /environment variable TAPIR_TEST_UNSET is not set/],
    // what every object inherits is no variable anyone set
    [['navigate --route=/settings', 'fill --ref=e1 --text=${env.constructor}'], /environment variable constructor is not set/],
    [['navigate --route=/settings', 'fill --ref=e1 --text=${env.__proto__}'], /environment variable __proto__ is not set/],
    [['navigate --route=/settings', 'fill --ref=e1 --text=${env.toString}'], /environment variable toString is not set/],
  ])('%j (exit 1)', async (steps, reason) => {
    const result = await s.spawn(['tapir:run', ...steps])
    expect(result.exitCode).toBe(1)
    expect(result.stderr).toMatch(reason)
    expect(result.stdout).toBe('')
    expect(await routeOf(s)).toBe('/login')
  })
})
