import {readFileSync, writeFileSync} from 'node:fs'
import {join} from 'node:path'
import {afterAll, describe, expect, it} from 'vitest'
import {tapir, tempDir} from '../helpers/cli.js'
import {mcpClient} from '../helpers/mcp.js'
import {refOf, simSession, type SimSession} from '../helpers/sim.js'

const PASSWORD = 'hunter22'
const ENV = {TAPIR_SECRET_PASSWORD: PASSWORD, TAPIR_PW: PASSWORD}

let scratch: {path: string; remove(): void} | undefined
const scratchDir = () => (scratch ??= tempDir('tapir-replay-')).path
afterAll(() => scratch?.remove())

/** What a recording must reproduce: the route, and the whole screen without its refs. */
async function screenOf(s: SimSession): Promise<{route: string; snapshot: string}> {
  const routes = await s.spawn(['tapir:get_routes'])
  const snap = await s.spawn(['tapir:snap'])
  expect(routes.exitCode, routes.stderr).toBe(0)
  expect(snap.exitCode, snap.stderr).toBe(0)
  return {route: (JSON.parse(routes.stdout) as {uri: string}).uri, snapshot: snap.stdout.replace(/ \[ref=e\d+\]/g, '')}
}

async function ok(s: SimSession, args: string[]): Promise<string> {
  const result = await s.spawn(args, {env: ENV})
  expect(result.exitCode, `${args.join(' ')}\n${result.stdout}\n${result.stderr}`).toBe(0)
  return result.stdout
}

/** The four flows (sign in; open a monitor and go back; change two settings; a tap whose until
 *  did not match), each action a CLI verb. */
async function throughTheCli(s: SimSession): Promise<void> {
  const login = await ok(s, ['tapir:snap', '--interactiveOnly'])
  await ok(s, ['tapir:fill', `--ref=${refOf(login, /textbox "Email"/)}`, '--text=ada@example.com'])
  await ok(s, ['tapir:fill', `--ref=${refOf(login, /textbox "Password"/)}`, `--text=${PASSWORD}`])
  expect(await ok(s, ['tapir:find', '--key=signIn'])).toContain('"ref": "q1"')
  expect(await ok(s, ['tapir:tap', '--ref=q1', '--until=Monitors'])).toContain('"untilMatched":true')
  const monitors = await ok(s, ['tapir:snap', '--interactiveOnly'])
  await ok(s, ['tapir:tap', `--ref=${refOf(monitors, /button "Web"/)}`])
  await ok(s, ['tapir:wait', '--text=Status: up'])
  await ok(s, ['tapir:navigate_back'])
  await ok(s, ['tapir:tap', `--ref=${refOf(await ok(s, ['tapir:snap']), /button "Settings"/)}`])
  const settings = await ok(s, ['tapir:snap', '--interactiveOnly'])
  await ok(s, ['tapir:set_checkbox', `--ref=${refOf(settings, /checkbox "Email alerts"/)}`, '--value=false'])
  await ok(s, ['tapir:tap', `--ref=${refOf(settings, /"Dark mode"/)}`])
  const region = refOf(settings, /"Region"/)
  expect(await ok(s, ['tapir:tap', `--ref=${region}`, '--until=Never there', '--untilTimeoutMs=200'])).toContain('"untilMatched":false')
}

/** The same flows as tapir:run steps, the password from the environment, refs from finds. */
async function throughTapirRun(s: SimSession): Promise<void> {
  await ok(s, [
    'tapir:run',
    'snap',
    'fill --ref=e2 --text=ada@example.com',
    'fill --ref=e3 --text=${env.TAPIR_PW}',
    'find --key=signIn',
    'tap --ref=q1 --until=Monitors',
  ])
  await ok(s, ['tapir:run', 'find --text=Web', 'tap --ref=q2', "wait --text='Status: up'", 'navigate_back'])
  await ok(s, ['tapir:run', 'find --semanticsLabel=Settings', 'tap --ref=q3'])
  await ok(s, [
    'tapir:run',
    'find --semanticsLabel="Email alerts"',
    'set_checkbox --ref=q4 --value=false',
    'find --text="Dark mode"',
    'tap --ref=q5',
    'find --key=region',
    "tap --ref=q6 --until='Never there' --untilTimeoutMs=200",
  ])
}

/** The same flows as MCP tool calls, with snapshot refs and observe handles. */
async function throughMcp(s: SimSession, file: string): Promise<void> {
  const client = await mcpClient(s.state, ['--record', file])
  try {
    const call = async (name: string, args: Record<string, unknown> = {}) => {
      const result = (await client.callTool({name, arguments: args})) as {content: Array<{text: string}>; isError?: boolean}
      expect(result.isError, `${name} ${JSON.stringify(args)}: ${result.content[0]!.text}`).not.toBe(true)
      return result.content[0]!.text
    }
    const snapshot = async () => (JSON.parse(await call('tapir_snap', {})) as {snapshot: string}).snapshot
    const login = await snapshot()
    await call('tapir_fill', {ref: refOf(login, /textbox "Email"/), text: 'ada@example.com'})
    await call('tapir_fill', {ref: refOf(login, /textbox "Password"/), text: PASSWORD})
    // The heading shares its label with the button, and find picks the button: the heading is written as observe by its role.
    await call('tapir_tap', {ref: refOf(login, /heading "Sign in"/)})
    await call('tapir_tap', {ref: refOf(login, /button "Sign in"/), until: 'Monitors'})
    const observed = JSON.parse(await call('tapir_observe', {roles: 'button'})) as {candidates: Array<{ref: string; label: string}>}
    await call('tapir_tap', {ref: observed.candidates.find((c) => c.label === 'Web')!.ref})
    await call('tapir_wait_for', {text: 'Status: up'})
    await call('tapir_navigate_back')
    await call('tapir_tap', {ref: observed.candidates.find((c) => c.label === 'Settings')!.ref})
    const settings = await snapshot()
    await call('tapir_set_checkbox', {ref: refOf(settings, /checkbox "Email alerts"/), value: 'false'})
    await call('tapir_tap', {ref: refOf(settings, /"Dark mode"/)})
    const tapped = await call('tapir_tap', {ref: refOf(settings, /"Region"/), until: 'Never there', untilTimeoutMs: 200})
    expect(tapped).toContain('"untilMatched":false')
  } finally {
    await client.close()
  }
}

describe('a replay does what was done', () => {
  it.each([
    ['CLI verbs', 'cli'],
    ['tapir:run steps', 'run'],
    ['MCP calls', 'mcp'],
  ])(
    'recorded through %s, replayed on a fresh app, ends on the same route and screen',
    async (_how, surface) => {
      const file = join(scratchDir(), `${surface}.tapir`)
      const recordedSession = await simSession()
      let recorded: {route: string; snapshot: string}
      try {
        if (surface === 'mcp') await throughMcp(recordedSession, file)
        else {
          await ok(recordedSession, ['record', 'start', file])
          await (surface === 'cli' ? throughTheCli(recordedSession) : throughTapirRun(recordedSession))
          const stopped = JSON.parse(await ok(recordedSession, ['record', 'stop', '--json'])) as {replayNeeds: string[]}
          expect(stopped.replayNeeds).toEqual(surface === 'cli' ? ['TAPIR_SECRET_PASSWORD'] : ['TAPIR_PW'])
        }
        recorded = await screenOf(recordedSession)
      } finally {
        await recordedSession.close()
      }
      expect(recorded.route).toBe('/settings')
      const text = readFileSync(file, 'utf8')
      expect(text).not.toContain(PASSWORD)
      expect(text).not.toMatch(/not replayable|not written/)
      if (surface === 'mcp') expect(text).toContain("observe --roles=heading --as=sign_in --label='Sign in'\ntap --ref=@sign_in\n")

      const fresh = await simSession()
      try {
        const replay = await fresh.spawn(['tapir:run', '--file', file], {env: ENV})
        expect(replay.exitCode, `${text}\n${replay.stdout}\n${replay.stderr}`).toBe(0)
        expect(await screenOf(fresh)).toEqual(recorded)
      } finally {
        await fresh.close()
      }
    },
    240_000,
  )
})

describe('a fill the field changed (a formatter upper-cases Nickname)', () => {
  it('is recorded with --holds so tapir test passes it; a fill of ${env} is masked in any case and fails saying why', async () => {
    const dir = scratchDir()
    const s = await simSession()
    try {
      await ok(s, ['record', 'start', join(dir, 'plain.tapir')])
      await ok(s, ['tapir:navigate', '--route=/settings'])
      const settings = await ok(s, ['tapir:snap', '--interactiveOnly'])
      const fill = await s.spawn(['tapir:fill', `--ref=${refOf(settings, /textbox "Nickname"/)}`, '--text=grace'])
      expect(fill).toMatchObject({exitCode: 0, stderr: expect.stringContaining('⚠ The field holds "GRACE" after the settle')})
      await ok(s, ['record', 'stop'])

      await ok(s, ['record', 'start', join(dir, 'secret.tapir')])
      const run = await s.spawn(
        ['tapir:run', 'navigate --route=/settings', 'observe --roles=textbox --as=n --label=Nickname', 'fill --ref=@n --text=${env.NICK}'],
        {env: {NICK: 'zorro'}},
      )
      expect(run.exitCode, run.stderr).toBe(0)
      expect(run.stderr).toContain('⚠ The field holds "***" after the settle')
      expect(run.stdout + run.stderr).not.toMatch(/zorro/i)
      await ok(s, ['record', 'stop'])

      const plain = readFileSync(join(dir, 'plain.tapir'), 'utf8')
      expect(plain).toContain('\nfill --ref=@nickname --text=grace --holds=GRACE\n')
      const secret = readFileSync(join(dir, 'secret.tapir'), 'utf8')
      expect(secret).not.toMatch(/zorro|--holds/i)
      expect(secret).toContain(
        '# fill did not take when recorded; what the field held is not written (it may hold the secret), so tapir test fails this step\nfill --ref=@nickname --text=${env.NICK}\n',
      )
      writeFileSync(join(dir, 'wrong.tapir'), plain.replace('--holds=GRACE', '--holds=Grace'))
    } finally {
      await s.close()
    }
    const fresh = await simSession()
    try {
      const test = await tapir(
        ['test', 'plain.tapir', 'secret.tapir', 'wrong.tapir', '--fresh=none', '--trace=off', '--output-dir=out', '--state', fresh.state],
        {cwd: dir, env: {NICK: 'zorro'}},
      )
      expect(test.exitCode, test.stdout + test.stderr).toBe(1)
      const lines = test.stdout.split('\n')
      expect(lines[0]).toMatch(/^✓ plain\.tapir /)
      expect(lines[1]).toMatch(/^✗ secret\.tapir /)
      expect(lines[2]).toMatch(
        /^ {4}secret\.tapir:\d+: step \d+ \(fill --ref=@nickname --text=\$\{env\.NICK\}\) failed \(exit 1\): fill answered effect\.verified: false, so a strict run fails it$/,
      )
      expect(lines[3]).toMatch(/^✗ wrong\.tapir /)
      expect(lines[4]).toMatch(/failed \(exit 1\): fill: the field holds "GRACE", not "Grace" as --holds says$/)
      for (const file of ['junit.xml', 'report.html', 'report.json'])
        expect(readFileSync(join(dir, 'out', file), 'utf8'), file).not.toMatch(/zorro/i)
      expect(test.stdout + test.stderr).not.toMatch(/zorro/i)
    } finally {
      await fresh.close()
    }
  }, 120_000)
})
