import {spawn, type ChildProcess} from 'node:child_process'
import {readdirSync, readFileSync, writeFileSync} from 'node:fs'
import {join} from 'node:path'
import {afterAll, beforeAll, describe, expect, it} from 'vitest'
import {isAlive} from '../../src/lib/session/process.js'
import {BIN, ROOT, tapir, tempDir} from '../helpers/cli.js'
import {expectNoProcessLeft} from '../helpers/leftovers.js'
import {canUnshare, inPidNamespace} from '../helpers/pid-namespace.js'

expectNoProcessLeft()

/** The sim entry the built CLI runs. */
const SIM_MAIN = join(ROOT, 'dist', 'sim', 'main.js')

/** A process this test starts and owns: the only kind it may let tapir near. */
function own(command: string, args: string[]): ChildProcess {
  const child = spawn(command, args, {detached: true, stdio: 'ignore'})
  child.unref()
  return child
}

function cmdline(pid: number): string[] {
  return readFileSync(`/proc/${pid}/cmdline`, 'utf8').replace(/\0$/, '').split('\0')
}

function startTime(pid: number): string {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8')
  return stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19]!
}

/** The sims running with their files in `dir` (tapir start puts its log and ready file there). */
function simsIn(dir: string): number[] {
  return readdirSync('/proc')
    .filter((name) => /^\d+$/.test(name))
    .filter((name) => {
      try {
        const argv = cmdline(Number(name))
        return argv.includes(SIM_MAIN) && argv.some((part) => part.startsWith(dir))
      } catch {
        return false
      }
    })
    .map(Number)
}

describe('tapir stop refuses a planted session and signals nothing', () => {
  const scratch = tempDir()
  let sleeper: ChildProcess
  let lookAlike: ChildProcess
  beforeAll(async () => {
    sleeper = own('sleep', ['60'])
    // A process whose command line names the sim's file, without being a sim tapir started.
    lookAlike = own(process.execPath, ['-e', 'setInterval(() => {}, 1000)', SIM_MAIN, '--mode', 'vm'])
    await new Promise((resolve) => setTimeout(resolve, 200))
  })
  afterAll(() => {
    sleeper.kill('SIGKILL')
    lookAlike.kill('SIGKILL')
    scratch.remove()
  })

  const cases: Array<[string, () => Record<string, unknown>]> = [
    ['a negative pid (a whole process group)', () => ({pid: -sleeper.pid!})],
    ['a pid that is not an integer', () => ({pid: `${sleeper.pid}`})],
    ['pid 1', () => ({pid: 1})],
    ['a foreign process (a pid tapir has no record of)', () => ({pid: sleeper.pid})],
    ['a foreign process named as chromePid', () => ({chromePid: sleeper.pid})],
    ['a look-alike command line naming the sim', () => ({pid: lookAlike.pid})],
    [
      "a record whose start time is not the process's",
      () => ({processes: {app: {pid: sleeper.pid, argv: cmdline(sleeper.pid!), startTime: '1'}}}),
    ],
    [
      "a record whose argv is not the process's",
      () => ({
        processes: {app: {pid: lookAlike.pid, argv: [process.execPath, SIM_MAIN, '--mode', 'vm'], startTime: startTime(lookAlike.pid!)}},
      }),
    ],
    ['a record with a bad pid', () => ({processes: {app: {pid: -1, argv: ['sleep', '60'], startTime: '1'}}})],
    ['a pid beside an honest record of another process', () => ({pid: sleeper.pid, processes: {}})],
  ]

  it.each(cases)('%s: exit 1, the session kept and every process alive', async (_name, fields) => {
    const state = join(scratch.path, 'state.json')
    writeFileSync(state, JSON.stringify({vmServiceUri: 'ws://127.0.0.1:9/AbCdEfGh12s=/ws', device: 'sim', ...fields()}), {mode: 0o600})
    const stop = await tapir(['stop', '--state', state], {cwd: scratch.path})
    expect(stop.exitCode).toBe(1)
    expect(stop.stderr).toMatch(
      /^✗ Refusing to stop: the session names processes tapir cannot prove it started: .*Nothing was signalled and the session is kept\./,
    )
    expect(stop.stderr.split('\n')).toHaveLength(1)
    expect(readFileSync(state, 'utf8')).toContain('vmServiceUri')
    expect(isAlive(sleeper.pid!)).toBe(true)
    expect(isAlive(lookAlike.pid!)).toBe(true)
  })

  it('start and attach over such a session do not tell the user to run stop', async () => {
    const state = join(scratch.path, 'state.json')
    writeFileSync(state, JSON.stringify({vmServiceUri: 'ws://127.0.0.1:9/AbCdEfGh12s=/ws', pid: sleeper.pid}), {mode: 0o600})
    const attach = await tapir(['attach', '--uri', 'http://127.0.0.1:9/AbCdEfGh12s=/', '--state', state], {cwd: scratch.path})
    expect(attach.exitCode).toBe(0)
    expect(attach.stderr).not.toContain('tapir stop')
    expect(isAlive(sleeper.pid!)).toBe(true)
  })

  // pid -1 is every process the user may signal and 0 is tapir's own process group: run tapir in
  // a throwaway PID namespace, beside a sleeper that would die if either were signalled.
  it.skipIf(!canUnshare).each([[-1], [0]])('pid %i, inside a PID namespace: exit 1 and the neighbour lives', async (pid) => {
    const state = join(scratch.path, `state${pid}.json`)
    writeFileSync(state, JSON.stringify({vmServiceUri: 'ws://127.0.0.1:9/AbCdEfGh12s=/ws', pid}), {mode: 0o600})
    const script = `sleep 60 & S=$!; "${process.execPath}" "${BIN}" stop --state "${state}"; echo "exit=$?"; kill -0 $S && echo neighbour-alive; kill $S`
    const result = await inPidNamespace(script, {HOME: scratch.path, PATH: process.env.PATH!})
    expect(result.stdout.split('\n')).toEqual(['exit=1', 'neighbour-alive'])
    expect(result.stderr).toMatch(/^✗ Refusing to stop: .*app pid=(-1|0) \(.* is not a process id tapir could have started\)/)
  })

  it('a real start records the sim; stop ends it and leaves the look-alike running', async () => {
    const dir = tempDir()
    const state = join(dir.path, 'state.json')
    const start = await tapir(['start', '--device=sim', '--state', state], {cwd: dir.path})
    expect(start.exitCode, start.stderr).toBe(0)
    const session = JSON.parse(readFileSync(state, 'utf8'))
    const pid = session.pid as number
    expect(session.processes.app).toEqual({
      pid,
      argv: cmdline(pid),
      startTime: startTime(pid),
      bootId: readFileSync('/proc/sys/kernel/random/boot_id', 'utf8').trim(),
    })
    const stop = await tapir(['stop', '--state', state], {cwd: dir.path})
    expect(stop).toMatchObject({exitCode: 0, stdout: expect.stringContaining(`✓ Stopped app pid=${pid}`)})
    expect(isAlive(pid)).toBe(false)
    expect(isAlive(lookAlike.pid!)).toBe(true)
    dir.remove()
  })
})

describe('concurrent start, attach and stop take the session lock', () => {
  it('five concurrent starts: one wins, four exit 1 naming the winner, one sim runs', async () => {
    const dir = tempDir()
    const state = join(dir.path, 'state.json')
    const results = await Promise.all(Array.from({length: 5}, () => tapir(['start', '--device=sim', '--state', state], {cwd: dir.path})))
    const winners = results.filter((result) => result.exitCode === 0)
    expect(winners, JSON.stringify(results)).toHaveLength(1)
    const pid = Number(/sim pid=(\d+)/.exec(winners[0]!.stdout)![1])
    for (const loser of results.filter((result) => result.exitCode !== 0)) {
      expect(loser.exitCode).toBe(1)
      expect(loser.stderr).toMatch(
        new RegExp(
          `^✗ (Another tapir \\(pid \\d+, \`tapir start\`, since .*\\) is working on this session; wait for it to finish, then try again\\. Lock: ${state}\\.lock|An app tapir started is still running for this project \\(pid ${pid}\\)\\. Run \`tapir stop\` first\\.)$`,
        ),
      )
    }
    expect(simsIn(dir.path)).toEqual([pid])
    expect((await tapir(['stop', '--state', state], {cwd: dir.path})).exitCode).toBe(0)
    expect(simsIn(dir.path)).toEqual([])
    dir.remove()
  })

  it('a lock held by a live tapir makes stop exit 1 naming it; a stale one is taken over', async () => {
    const dir = tempDir()
    const state = join(dir.path, 'state.json')
    writeFileSync(state, JSON.stringify({vmServiceUri: 'ws://127.0.0.1:9/AbCdEfGh12s=/ws'}), {mode: 0o600})
    const holder = own('sleep', ['60'])
    await new Promise((resolve) => setTimeout(resolve, 100))
    const lock = (pid: number, start: string) =>
      JSON.stringify({pid, argv: cmdline(holder.pid!), startTime: start, command: 'start', since: '2025-01-01T00:00:00.000Z'})
    writeFileSync(`${state}.lock`, lock(holder.pid!, startTime(holder.pid!)), {mode: 0o600})
    const busy = await tapir(['stop', '--state', state], {cwd: dir.path})
    expect(busy).toMatchObject({
      exitCode: 1,
      stderr: `✗ Another tapir (pid ${holder.pid}, \`tapir start\`, since 2025-01-01T00:00:00.000Z) is working on this session; wait for it to finish, then try again. Lock: ${state}.lock`,
    })
    expect(readFileSync(state, 'utf8')).toContain('vmServiceUri')

    writeFileSync(`${state}.lock`, lock(holder.pid!, '1'), {mode: 0o600}) // a recycled pid: not the holder any more
    const stop = await tapir(['stop', '--state', state], {cwd: dir.path})
    expect(stop).toMatchObject({exitCode: 0, stdout: `✓ Removed session ${state}`})
    expect(readdirSync(dir.path)).toEqual([])
    expect(isAlive(holder.pid!)).toBe(true)
    holder.kill('SIGKILL')
    dir.remove()
  })
})
