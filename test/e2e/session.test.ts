import {spawn} from 'node:child_process'
import {createHash} from 'node:crypto'
import {existsSync, mkdirSync, readFileSync, realpathSync, rmSync, statSync, writeFileSync} from 'node:fs'
import {dirname, join} from 'node:path'
import {afterAll, beforeAll, describe, expect, it} from 'vitest'
import {isAlive} from '../../src/lib/session/process.js'
import {startSim, type SimHandle} from '../../src/sim/index.js'
import {tapir, tempDir} from '../helpers/cli.js'
import {expectNoProcessLeft} from '../helpers/leftovers.js'

expectNoProcessLeft()

describe('no session', () => {
  it('a connected verb exits 1 naming tapir start and tapir attach', async () => {
    const scratch = tempDir()
    const result = await tapir(['tapir:snap'], {cwd: scratch.path, home: scratch.path})
    expect(result.exitCode).toBe(1)
    expect(result.stdout).toBe('')
    expect(result.stderr).toMatch(
      /^✗ No running Flutter app detected \(session file: .*\)\. Run `tapir start --device=sim` or `tapir attach --uri <VM Service URI>` first\.$/,
    )
    scratch.remove()
  })

  it('keeps exit 1 with --json and prints the error as JSON', async () => {
    const scratch = tempDir()
    const result = await tapir(['tapir:tap', '--ref=e1', '--json'], {cwd: scratch.path, home: scratch.path})
    expect(result.exitCode).toBe(1)
    expect(JSON.parse(result.stdout)).toMatchObject({error: {exitCode: 1, message: expect.stringContaining('No running Flutter app')}})
    scratch.remove()
  })

  it('status exits 1 and stop is a no-op', async () => {
    const scratch = tempDir()
    expect((await tapir(['status'], {cwd: scratch.path, home: scratch.path})).exitCode).toBe(1)
    const stop = await tapir(['stop'], {cwd: scratch.path, home: scratch.path})
    expect(stop).toMatchObject({exitCode: 0, stdout: expect.stringContaining('Nothing to stop')})
    scratch.remove()
  })
})

describe('tapir attach / status / stop', () => {
  let sim: SimHandle
  const scratch = tempDir()
  const project = join(scratch.path, 'app')
  beforeAll(async () => {
    sim = await startSim()
    mkdirSync(join(project, 'lib'), {recursive: true})
    writeFileSync(join(project, 'pubspec.yaml'), 'name: app\n')
  })
  afterAll(async () => {
    await sim.close()
    scratch.remove()
  })

  it('attach records the session per project, mode 0600, and never prints the token', async () => {
    const attach = await tapir(['attach', '--uri', sim.httpUri], {cwd: join(project, 'lib'), home: scratch.path})
    expect(attach.exitCode).toBe(0)
    expect(attach.stdout).toMatch(
      /^✓ Attached to ws:\/\/127\.0\.0\.1:\d+\/\*\*\*\/ws\n✓ state=.*\/\.tapir\/sessions\/[0-9a-f]{12}\/state\.json$/,
    )
    expect(attach.stdout + attach.stderr).not.toContain(sim.token)
    const path = attach.stdout.split('state=')[1]!
    expect(statSync(path).mode & 0o777).toBe(0o600)
    const session = JSON.parse(readFileSync(path, 'utf8'))
    expect(session).toMatchObject({vmServiceUri: sim.wsUri, projectRoot: project, device: 'attached'})
  })

  it('status prints the session with the token hidden and says the app answers with tapir in it', async () => {
    const status = await tapir(['status'], {cwd: project, home: scratch.path})
    expect(status.exitCode).toBe(0)
    expect(status.stdout).not.toContain(sim.token)
    expect(JSON.parse(status.stdout)).toMatchObject({
      vmServiceUri: expect.stringContaining('/***/ws'),
      answering: true,
      tapir: true,
      ownedByThisProject: true,
    })
  })

  it('a verb run from another project refuses the shared pointer with the ownership message', async () => {
    const other = join(scratch.path, 'other')
    mkdirSync(other, {recursive: true})
    writeFileSync(join(other, 'pubspec.yaml'), 'name: other\n')
    const result = await tapir(['tapir:snap'], {cwd: other, home: scratch.path})
    expect(result.exitCode).toBe(1)
    expect(result.stderr).toContain(`The running app belongs to another project (${project})`)
  })

  it('stop removes the session file', async () => {
    const stop = await tapir(['stop'], {cwd: project, home: scratch.path})
    expect(stop.exitCode).toBe(0)
    expect(stop.stdout).toContain('✓ Removed session')
    expect((await tapir(['tapir:snap'], {cwd: project, home: scratch.path})).exitCode).toBe(1)
  })

  it.each([['not a uri'], ['ftp://127.0.0.1:1/x'], ['sse://127.0.0.1:8181/AbCdEfGh12s=/$debugHandler']])(
    'attach refuses the malformed URI %j with exit 1',
    async (uri) => {
      const result = await tapir(['attach', '--uri', uri], {cwd: project, home: scratch.path})
      expect(result.exitCode).toBe(1)
      expect(result.stderr).toMatch(/^✗ Not a VM Service URI/)
      expect(result.stderr).not.toContain('AbCdEfGh12s=')
    },
  )
})

describe('tapir start --device=sim', () => {
  it('runs the sim in the background, serves verbs, and stop leaves no process behind', async () => {
    const scratch = tempDir()
    const env = {TAPIR_STATE_FILE: join(scratch.path, 'state.json')}
    const start = await tapir(['start', '--device=sim'], {cwd: scratch.path, home: scratch.path, env})
    expect(start.exitCode, start.stderr).toBe(0)
    const pid = Number(/sim pid=(\d+)/.exec(start.stdout)?.[1])
    expect(isAlive(pid)).toBe(true)
    expect(statSync(env.TAPIR_STATE_FILE).mode & 0o777).toBe(0o600)

    const again = await tapir(['start', '--device=sim'], {cwd: scratch.path, home: scratch.path, env})
    expect(again.exitCode).toBe(1)
    expect(again.stderr).toBe(`✗ An app tapir started is still running for this project (pid ${pid}). Run \`tapir stop\` first.`)
    const attach = await tapir(['attach', '--uri', 'http://127.0.0.1:9/AbCdEfGh12s=/'], {cwd: scratch.path, home: scratch.path, env})
    expect(attach.exitCode).toBe(1)
    expect(attach.stderr).toContain('still running')

    const snap = await tapir(['tapir:snap', '--interactiveOnly'], {cwd: scratch.path, home: scratch.path, env})
    expect(snap.exitCode).toBe(0)
    expect(snap.stdout).toContain('- button "Sign in" [ref=e4]')
    const find = await tapir(['tapir:find', '--text=Sign in'], {cwd: scratch.path, home: scratch.path, env})
    const handle = JSON.parse(find.stdout).ref as string
    expect(await tapir(['tapir:tap', `--ref=${handle}`], {cwd: scratch.path, home: scratch.path, env})).toMatchObject({
      exitCode: 0,
      stdout: `✓ Tapped ${handle}`,
    })
    const after = await tapir(['tapir:snap'], {cwd: scratch.path, home: scratch.path, env})
    expect(after.stdout).toContain('- text "Enter your email and password"')

    const stop = await tapir(['stop'], {cwd: scratch.path, home: scratch.path, env})
    expect(stop.exitCode).toBe(0)
    expect(stop.stdout).toContain(`✓ Stopped app pid=${pid}`)
    expect(isAlive(pid)).toBe(false)
    expect(existsSync(env.TAPIR_STATE_FILE)).toBe(false)
    scratch.remove()
  })

  it('close_app ends the background app: its process exits and its VM Service is gone', async () => {
    const scratch = tempDir()
    const env = {TAPIR_STATE_FILE: join(scratch.path, 'state.json')}
    const start = await tapir(['start', '--device=sim'], {cwd: scratch.path, home: scratch.path, env})
    const pid = Number(/sim pid=(\d+)/.exec(start.stdout)?.[1])
    expect(await tapir(['tapir:close_app'], {cwd: scratch.path, home: scratch.path, env})).toMatchObject({
      exitCode: 0,
      stdout: '✓ Asked the app to close',
    })
    for (let i = 0; i < 50 && isAlive(pid); i++) await new Promise((resolve) => setTimeout(resolve, 100))
    expect(isAlive(pid)).toBe(false)
    const after = await tapir(['tapir:snap'], {cwd: scratch.path, home: scratch.path, env})
    expect(after.exitCode).toBe(3)
    expect(after.stderr).toMatch(/^✗ Cannot reach the app's VM Service/)
    expect((await tapir(['stop'], {cwd: scratch.path, home: scratch.path, env})).exitCode).toBe(0)
    scratch.remove()
  })

  it('a real device needs flutter: with none on PATH it says how to get it, exit 1', async () => {
    const result = await tapir(['start', '--device=chrome'], {env: {PATH: dirname(process.execPath), TAPIR_FLUTTER_BIN: ''}})
    expect(result.exitCode).toBe(1)
    expect(result.stderr).toContain('✗ No flutter on PATH.')
  })

  it('refuses flutter run arguments (after --) for the sim', async () => {
    const result = await tapir(['start', '--device=sim', '--', '--flavor=dev'])
    expect(result.stderr).toBe('✗ Arguments for flutter run (after --) need a real device, not --device=sim.')
    expect(result.exitCode).toBe(1)
  })
})

describe('sessions of several projects', () => {
  const scratch = tempDir()
  const projectA = join(scratch.path, 'a')
  const projectB = join(scratch.path, 'b')
  const run = (cwd: string, args: string[]) => tapir(args, {cwd, home: scratch.path})
  beforeAll(() => {
    for (const project of [projectA, projectB]) {
      mkdirSync(project, {recursive: true})
      writeFileSync(join(project, 'pubspec.yaml'), 'name: app\n')
    }
  })
  afterAll(async () => {
    await run(projectA, ['stop'])
    await run(projectB, ['stop'])
    scratch.remove()
  })

  it('each project starts, drives and stops its own app while the other runs', async () => {
    expect((await run(projectA, ['start', '--device=sim'])).exitCode).toBe(0)
    const b = await run(projectB, ['start', '--device=sim'])
    expect(b.exitCode, b.stderr).toBe(0)
    const pidA = JSON.parse((await run(projectA, ['status'])).stdout).pid as number
    expect((await run(projectB, ['tapir:snap', '--interactiveOnly'])).exitCode).toBe(0)
    expect((await run(projectB, ['stop'])).exitCode).toBe(0)
    expect(isAlive(pidA)).toBe(true)
    expect((await run(projectA, ['tapir:snap', '--interactiveOnly'])).exitCode).toBe(0)
  })

  it('an unreadable shared pointer or Dart-tooling file does not stand in the way', async () => {
    writeFileSync(join(scratch.path, '.tapir', 'state.json'), '{ broken')
    mkdirSync(join(scratch.path, '.dowel'), {recursive: true})
    writeFileSync(join(scratch.path, '.dowel', 'state.json'), 'also broken')
    expect((await run(projectA, ['tapir:snap', '--interactiveOnly'])).exitCode).toBe(0)
    const elsewhere = join(scratch.path, 'c')
    mkdirSync(elsewhere)
    const none = await run(elsewhere, ['tapir:snap'])
    expect(none.exitCode).toBe(1)
    expect(none.stderr).toMatch(/^✗ No running Flutter app detected/)
  })

  it("stop leaves alone a process named by another tool's session, and a corrupt own file is removed", async () => {
    const other = join(scratch.path, 'd')
    mkdirSync(other)
    writeFileSync(join(other, 'pubspec.yaml'), 'name: d\n')
    const sleeper = spawn('sleep', ['30'], {detached: true, stdio: 'ignore'})
    sleeper.unref()
    const dowelState = join(scratch.path, '.dowel', 'state.json')
    writeFileSync(dowelState, JSON.stringify({vmServiceUri: 'ws://127.0.0.1:9/AbCdEfGh12s=/ws', pid: sleeper.pid, projectRoot: other}))
    rmSync(join(scratch.path, '.tapir', 'state.json'), {force: true})
    const stop = await run(other, ['stop'])
    expect(stop).toMatchObject({exitCode: 0, stdout: expect.stringContaining('Nothing to stop')})
    expect(isAlive(sleeper.pid!)).toBe(true)
    expect(existsSync(dowelState)).toBe(true)
    process.kill(sleeper.pid!)

    const digest = createHash('sha256').update(realpathSync(other)).digest('hex').slice(0, 12)
    const own = join(scratch.path, '.tapir', 'sessions', digest, 'state.json')
    mkdirSync(dirname(own), {recursive: true, mode: 0o700})
    writeFileSync(own, '[]', {mode: 0o600})
    expect((await run(other, ['tapir:snap'])).stderr).toBe(
      `✗ ${own} is not a tapir session file (a JSON object with vmServiceUri). Remove it with \`tapir stop\`, then start or attach again.`,
    )
    expect(await run(other, ['stop'])).toMatchObject({exitCode: 0, stdout: `✓ Removed the unreadable session ${own}`})
    expect(existsSync(own)).toBe(false)
  })
})
