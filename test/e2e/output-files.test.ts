import {chmodSync, mkdirSync, readFileSync, statSync, symlinkSync, writeFileSync} from 'node:fs'
import {createServer, type Server} from 'node:net'
import {join} from 'node:path'
import {afterAll, beforeAll, describe, expect, it} from 'vitest'
import {tapir, tempDir} from '../helpers/cli.js'
import {expectNoProcessLeft} from '../helpers/leftovers.js'
import {withSimSession} from '../helpers/sim.js'

expectNoProcessLeft()

const PNG = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])

describe('screenshot --output and perf_trace --out never clobber a user file', () => {
  const s = withSimSession({}, 'in-process')
  let token: string
  beforeAll(async () => {
    await s.run(['tapir:perf_begin', '--mode=timing'])
    await s.run(['tapir:navigate', '--route=/monitors'])
    token = /(perf-\d+)/.exec((await s.run(['tapir:perf_end'])).stdout)![1]!
  })

  it('replaces its own earlier image and keeps its mode', async () => {
    const out = join(s.dir, 'shot.png')
    expect((await s.run(['tapir:screenshot', `--output=${out}`])).exitCode).toBe(0)
    chmodSync(out, 0o640)
    const again = await s.run(['tapir:screenshot', `--output=${out}`])
    expect(again.exitCode, again.stderr).toBe(0)
    expect(statSync(out).mode & 0o777).toBe(0o640)
    expect(readFileSync(out).subarray(0, 8).equals(PNG)).toBe(true)
  })

  it.each([
    ['tapir:screenshot', '--output', 'an image'],
    ['tapir:perf_trace', '--out', 'a Chrome Trace JSON file'],
  ])('%s refuses a file that is not its own output, and a symbolic link', async (verb, flag, what) => {
    const extra = verb === 'tapir:perf_trace' ? [`--token=${token}`] : []
    const notes = join(s.dir, `notes-${flag}.txt`)
    writeFileSync(notes, 'my notes\n', {mode: 0o600})
    const refused = await s.run([verb, `${flag}=${notes}`, ...extra])
    expect(refused).toMatchObject({
      exitCode: 1,
      stderr: `✗ Refusing to replace ${notes}: it exists and is not ${what} tapir wrote. Remove it, or choose another path.`,
    })
    expect(readFileSync(notes, 'utf8')).toBe('my notes\n')

    const link = join(s.dir, `link-${flag}`)
    symlinkSync(notes, link)
    const linked = await s.run([verb, `${flag}=${link}`, ...extra])
    expect(linked).toMatchObject({
      exitCode: 1,
      stderr: `✗ Refusing to write ${link}: it is a symbolic link. Name the file itself, or another path.`,
    })
    expect(readFileSync(notes, 'utf8')).toBe('my notes\n')
  })

  it('perf_trace replaces its own earlier trace and keeps its mode', async () => {
    const out = join(s.dir, 'list.trace.json')
    expect((await s.run(['tapir:perf_trace', `--out=${out}`, `--token=${token}`])).exitCode).toBe(0)
    chmodSync(out, 0o600)
    const again = await s.run(['tapir:perf_trace', `--out=${out}`, `--token=${token}`])
    expect(again.exitCode, again.stderr).toBe(0)
    expect(statSync(out).mode & 0o777).toBe(0o600)
    expect(JSON.parse(readFileSync(out, 'utf8'))).toMatchObject({traceEvents: expect.any(Array)})
  })

  it('a folder, a read-only place and a path under /proc are one-line local failures (exit 1), without hanging', async () => {
    const folder = join(s.dir, 'shots')
    mkdirSync(folder)
    expect(await s.run(['tapir:screenshot', `--output=${folder}`])).toMatchObject({
      exitCode: 1,
      stderr: `✗ Cannot write ${folder}: it is a folder. Name a file inside it instead.`,
    })
    const readOnly = await s.run(['tapir:screenshot', '--output=/proc/shot.png'])
    expect(readOnly.exitCode).toBe(1)
    expect(readOnly.stderr).toMatch(/^✗ Cannot write \/proc\/shot\.png: .* \(E[A-Z]+\)\.$/)
    const deep = await s.run(['tapir:perf_trace', '--out=/proc/no/such/folder/t.json', `--token=${token}`])
    expect(deep.exitCode).toBe(1)
    expect(deep.stderr).toMatch(/^✗ Cannot create the folder \/proc\/no: .* \(E[A-Z]+\)\.$/)
  })
})

describe('start: clear local errors', () => {
  let server: Server
  let port: number
  beforeAll(async () => {
    server = createServer()
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
    port = (server.address() as {port: number}).port
  })
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())))

  it('a port already in use says so', async () => {
    const dir = tempDir()
    const result = await tapir(['start', '--device=sim', `--port=${port}`, '--state', join(dir.path, 'state.json')], {cwd: dir.path})
    expect(result).toMatchObject({
      exitCode: 1,
      stderr: `✗ Port ${port} is already in use on 127.0.0.1; pass --port=<a free port>, or --port=0 to pick one.`,
    })
    dir.remove()
  })

  it('a missing --device is a usage error naming the flag', async () => {
    expect(await tapir(['start'])).toMatchObject({exitCode: 1, stderr: '✗ Missing required flag device. See `tapir start --help`.'})
  })
})

describe('an output path is checked before the app is asked anything', () => {
  // The app answers the call with a frame that is not JSON: asked at all, the verb fails with exit 3.
  const s = withSimSession({faults: {malformedOn: 'ext.tapir.screenshot'}}, 'in-process')
  const t = withSimSession({faults: {malformedOn: 'ext.tapir.perf_trace'}}, 'in-process')

  it.each([
    ['tapir:screenshot', '--output', s],
    ['tapir:perf_trace', '--out', t],
  ])('%s with a folder (with and without its slash, or one not made yet) is the local error, exit 1', async (verb, flag, session) => {
    const folder = join(session.dir, `shots-${flag}`)
    mkdirSync(folder)
    const extra = verb === 'tapir:perf_trace' ? ['--token=perf-1'] : []
    for (const [path, reason] of [
      [`${folder}/`, 'it names a folder. Name a file inside it instead.'],
      [folder, 'it is a folder. Name a file inside it instead.'],
      [join(session.dir, 'not-made-yet/'), 'it names a folder. Name a file inside it instead.'],
    ] as const) {
      const result = await session.run([verb, `${flag}=${path}`, ...extra])
      expect(result).toMatchObject({exitCode: 1, stdout: '', stderr: `✗ Cannot write ${path}: ${reason}`})
    }
    expect((await session.run([verb, `${flag}=${join(session.dir, 'a-file')}`, ...extra])).exitCode).toBe(3)
  })
})
