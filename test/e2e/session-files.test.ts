import {
  chmodSync,
  chownSync,
  existsSync,
  lstatSync,
  mkdirSync,
  readFileSync,
  readlinkSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs'
import {join} from 'node:path'
import {afterAll, describe, expect, it} from 'vitest'
import {isAlive} from '../../src/lib/session/process.js'
import {BIN, tapir, tempDir} from '../helpers/cli.js'
import {canUnshare, inPidNamespace} from '../helpers/pid-namespace.js'
import {UNKNOWN_UID, canMapUser, runAsUnknownUser} from '../helpers/user-namespace.js'

const URI = 'http://127.0.0.1:9/AbCdEfGh12s=/'
const isRoot = process.getuid?.() === 0

describe('session writes cannot be redirected', () => {
  const scratch = tempDir()
  afterAll(() => scratch.remove())

  // In a fresh PID namespace tapir runs as pid 1 or 2, so the old temp names (<file>.<pid>.tmp)
  // are known in advance: plant a link at every such name, pointing at a file of the user's.
  it.skipIf(!canUnshare)('links planted at every predictable temp name are neither followed nor renamed into place', async () => {
    const dir = join(scratch.path, 'planted')
    mkdirSync(dir, {mode: 0o700})
    const target = join(scratch.path, 'precious.txt')
    writeFileSync(target, 'untouched\n', {mode: 0o644})
    const state = join(dir, 'state.json')
    for (let pid = 1; pid <= 300; pid++) symlinkSync(target, `${state}.${pid}.tmp`)
    const result = await inPidNamespace(`"${process.execPath}" "${BIN}" attach --uri ${URI} --state "${state}" --timeout 200`, {
      HOME: scratch.path,
      PATH: process.env.PATH!,
    })
    expect(result.exitCode, result.stderr).toBe(0)
    expect(readFileSync(target, 'utf8')).toBe('untouched\n')
    expect(statSync(target).mode & 0o777).toBe(0o644)
    expect(lstatSync(state).isFile()).toBe(true)
    expect(statSync(state).mode & 0o777).toBe(0o600)
    expect(JSON.parse(readFileSync(state, 'utf8'))).toMatchObject({vmServiceUri: 'ws://127.0.0.1:9/AbCdEfGh12s=/ws'})
    expect(readlinkSync(`${state}.2.tmp`)).toBe(target)
  })

  it('a session file that is a symbolic link is refused, its target untouched', async () => {
    const target = join(scratch.path, 'elsewhere.txt')
    writeFileSync(target, 'untouched\n')
    const state = join(scratch.path, 'linked.json')
    symlinkSync(target, state)
    const attach = await tapir(['attach', '--uri', URI, '--state', state, '--timeout', '200'], {cwd: scratch.path})
    expect(attach).toMatchObject({
      exitCode: 1,
      stderr: `✗ Refusing the session file ${state}: it is a symbolic link. tapir reads and writes its session files only in place.`,
    })
    expect(readFileSync(target, 'utf8')).toBe('untouched\n')
  })
})

describe("only the user's own session files are trusted", () => {
  // A user namespace, not setpriv: the user it runs as keeps access to the checkout wherever it
  // lives, a private `mktemp -d` folder or a 0700 home included.
  it.skipIf(!canMapUser)('with HOME unset and no passwd entry tapir starts cleanly and never falls back to a shared folder', async () => {
    const env = {PATH: process.env.PATH!, NO_COLOR: '1'}
    const run = (args: string[]) => runAsUnknownUser(process.execPath, [BIN, ...args], {env, cwd: '/'})
    expect(await runAsUnknownUser('sh', ['-c', 'id -u; getent passwd "$(id -u)" || echo none'], {env, cwd: '/'})).toMatchObject({
      stdout: `${UNKNOWN_UID}\nnone`,
    })
    const help = await run(['--help'])
    expect(help.exitCode, help.stderr).toBe(0)
    expect(help.stderr).toBe('')
    const status = await run(['status'])
    expect(status.exitCode).toBe(1)
    expect(status.stderr).toBe(
      '✗ Cannot tell where your home folder is (HOME is not set and the user has no passwd entry). Set HOME, or pass --state=<file> (or TAPIR_STATE_FILE) to name the session file.',
    )
    const attach = await run(['attach', '--uri', URI])
    expect(attach.exitCode).toBe(1)
    expect(existsSync('/tmp/.tapir/sessions')).toBe(false)
  })

  it('a group-writable sessions folder or a file owned by another user is refused; the app keeps running', async () => {
    const home = tempDir()
    const project = join(home.path, 'app')
    mkdirSync(project)
    writeFileSync(join(project, 'pubspec.yaml'), 'name: app\n')
    const run = (args: string[]) => tapir(args, {cwd: project, home: home.path})
    const start = await run(['start', '--device=sim'])
    expect(start.exitCode, start.stderr).toBe(0)
    const pid = Number(/sim pid=(\d+)/.exec(start.stdout)![1])
    const state = /state=(.*)/.exec(start.stdout)![1]!
    const folder = join(state, '..')

    chmodSync(folder, 0o770)
    for (const args of [['stop'], ['tapir:snap'], ['status']]) {
      const refused = await run(args)
      expect(refused).toMatchObject({
        exitCode: 1,
        stderr: `✗ Refusing the sessions folder ${folder}: group or others can write it (mode 0770). Make it yours and private (chmod go-w), or pass --state=<file> in a folder of your own.`,
      })
    }
    expect(isAlive(pid)).toBe(true)
    chmodSync(folder, 0o700)

    chmodSync(state, 0o622)
    expect(await run(['stop'])).toMatchObject({
      exitCode: 1,
      stderr: `✗ Refusing the session file ${state}: group or others can write it (mode 0622). Remove it if you did not write it, or make it yours and private (chmod 600).`,
    })
    chmodSync(state, 0o600)

    if (isRoot) {
      chownSync(state, 65534, 65534)
      expect(await run(['stop'])).toMatchObject({
        exitCode: 1,
        stderr: `✗ Refusing the session file ${state}: it belongs to uid 65534, not to you (uid 0). Remove it if you did not write it, or make it yours and private (chmod 600).`,
      })
      expect(isAlive(pid)).toBe(true)
      chownSync(state, 0, 0)
    }
    expect((await run(['stop'])).exitCode).toBe(0)
    expect(isAlive(pid)).toBe(false)
    home.remove()
  })

  it('a --state file in a folder others can write is refused, but a sticky shared folder is fine', async () => {
    const dir = tempDir()
    chmodSync(dir.path, 0o777)
    const refused = await tapir(['attach', '--uri', URI, '--state', join(dir.path, 'state.json'), '--timeout', '200'], {cwd: dir.path})
    expect(refused.exitCode).toBe(1)
    expect(refused.stderr).toContain(`Refusing the sessions folder ${dir.path}: group or others can write it (mode 0777)`)
    expect(existsSync(join(dir.path, 'state.json'))).toBe(false)
    chmodSync(dir.path, 0o1777)
    const sticky = await tapir(['attach', '--uri', URI, '--state', join(dir.path, 'state.json'), '--timeout', '200'], {cwd: dir.path})
    expect(sticky.exitCode, sticky.stderr).toBe(0)
    dir.remove()
  })
})

describe('stop removes only a tapir session', () => {
  it.each([
    ['package.json', '{"name": "app", "version": "1.0.0"}\n'],
    ['notes.txt', 'my notes\n'],
    ['list.json', '[]'],
  ])('stop --state=%s exits 1 and leaves the file', async (name, text) => {
    const dir = tempDir()
    const file = join(dir.path, name)
    writeFileSync(file, text, {mode: 0o600})
    const stop = await tapir(['stop', '--state', file], {cwd: dir.path})
    expect(stop).toMatchObject({
      exitCode: 1,
      stderr: `✗ ${file} is not a tapir session file (a JSON object with vmServiceUri). Check --state / TAPIR_STATE_FILE: it must name a session file tapir wrote.`,
    })
    expect(readFileSync(file, 'utf8')).toBe(text)
    dir.remove()
  })
})
