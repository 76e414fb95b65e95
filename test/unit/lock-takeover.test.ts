import {spawnSync} from 'node:child_process'
import {createHash} from 'node:crypto'
import fs, {chownSync, readFileSync, readdirSync, symlinkSync, unlinkSync, writeFileSync} from 'node:fs'
import {syncBuiltinESMExports} from 'node:module'
import {join} from 'node:path'
import {afterAll, afterEach, describe, expect, it} from 'vitest'
import {TapirError} from '../../src/lib/errors.js'
import {takeLock} from '../../src/lib/session/lock.js'
import {tempDir} from '../helpers/cli.js'
import {namedSessionIn} from '../helpers/named-session.js'
import {UNKNOWN_UID} from '../helpers/user-namespace.js'

// Taking over a lock whose holder is gone, when another process takes it over at the same time.
// Two processes are played here by two takeLock calls of this one (both live holders): the second
// runs whole at each file-system call the first makes in turn, which covers every point at which
// a process can be paused while another takes the lock over. Exactly one of them may get it.
describe.skipIf(process.platform !== 'linux')('taking over a stale lock', () => {
  const dir = tempDir('tapir-lock-')
  const location = namedSessionIn(dir.path)
  const lock = `${location.path}.lock`
  const busy = (holder: {pid: number; command: string}) => new TapirError(`busy: ${holder.command}`, 'local')
  const take = (command: string) => takeLock(location, lock, command, busy)
  // A holder that is gone: a pid that exited, recorded with a start time it never had (so a reuse
  // of that pid meanwhile is not it either).
  const deadPid = spawnSync('true').pid
  const gone = (command: string) =>
    JSON.stringify({pid: deadPid, argv: ['true'], startTime: '1', command, since: '2025-01-01T00:00:00.000Z'})
  const claimOf = (name: string, text: string) => `${name}.takeover-${createHash('sha256').update(text).digest('hex').slice(0, 16)}`
  const holderOfLock = () => (JSON.parse(readFileSync(lock, 'utf8')) as {command: string}).command

  const calls = ['openSync', 'readFileSync', 'writeSync', 'closeSync', 'fstatSync', 'linkSync', 'unlinkSync', 'renameSync'] as const
  const originals = Object.fromEntries(calls.map((name) => [name, fs[name]])) as Record<
    (typeof calls)[number],
    (...args: unknown[]) => unknown
  >
  /** Runs `first`, calling `second` just before its `at`-th file-system call (never, when 0);
   *  answers how many calls `first` made. */
  function interleave(at: number, first: () => void, second: () => void): number {
    let count = 0
    let inSecond = false
    for (const name of calls)
      (fs as unknown as Record<string, unknown>)[name] = (...args: unknown[]) => {
        if (!inSecond && ++count === at) {
          inSecond = true
          try {
            second()
          } finally {
            inSecond = false
          }
        }
        return originals[name](...args)
      }
    syncBuiltinESMExports()
    try {
      first()
    } finally {
      Object.assign(fs, originals)
      syncBuiltinESMExports()
    }
    return count
  }

  afterEach(() => {
    for (const name of readdirSync(dir.path)) unlinkSync(join(dir.path, name))
  })
  afterAll(() => dir.remove())

  function race(setUp: () => void): number {
    setUp()
    let release = () => {}
    const points = interleave(
      0,
      () => (release = take('first')),
      () => {},
    )
    expect(points).toBeGreaterThan(10)
    release()
    expect(readdirSync(dir.path)).toEqual([])
    for (let at = 1; at <= points; at++) {
      setUp()
      const got: {command: string; release: () => void}[] = []
      const failed: string[] = []
      const attempt = (command: string) => {
        try {
          got.push({command, release: take(command)})
        } catch (error) {
          failed.push(`${command}: ${error instanceof TapirError ? error.message : String(error)}`)
        }
      }
      interleave(
        at,
        () => attempt('first'),
        () => attempt('second'),
      )
      expect(
        got.map(({command}) => command),
        `second ran at call ${at} of ${points}; failed: ${failed.join('; ')}`,
      ).toHaveLength(1)
      expect(failed).toEqual([`${got[0].command === 'first' ? 'second' : 'first'}: busy: ${got[0].command}`])
      expect(holderOfLock()).toBe(got[0].command)
      got[0].release()
      expect(readdirSync(dir.path)).toEqual([])
    }
    return points
  }

  it('by two processes at once: one of them gets it, at every point the other may run', () => {
    race(() => writeFileSync(lock, gone('tapir start'), {mode: 0o600}))
  })

  it('left with the claim of a takeover whose process died too: one of them gets it, at every point', () => {
    race(() => {
      const stale = gone('tapir start')
      writeFileSync(lock, stale, {mode: 0o600})
      writeFileSync(claimOf(lock, stale), gone('tapir stop'), {mode: 0o600})
    })
  })

  it('that is empty or half-written (its process killed while writing it): taken over at once', () => {
    for (const text of ['', '{"pid": 12', '{"pid": 1, "argv": ["init"], "startTime": "1", "command": "x", "since": "y"}']) {
      writeFileSync(lock, text, {mode: 0o600})
      const release = take('tapir start')
      expect(holderOfLock()).toBe('tapir start')
      release()
      expect(readdirSync(dir.path)).toEqual([])
    }
  })

  it('whose pid now runs another process: taken over at once', () => {
    const stat = readFileSync(`/proc/${process.pid}/stat`, 'utf8')
    const startTime = stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19]
    const argv = readFileSync(`/proc/${process.pid}/cmdline`, 'utf8').replace(/\0$/, '').split('\0')
    const record = (fields: object) => JSON.stringify({pid: process.pid, argv, startTime, command: 'tapir start', since: 'x', ...fields})
    writeFileSync(lock, record({}), {mode: 0o600})
    expect(() => take('tapir stop')).toThrow('busy: tapir start') // the record is this very process: live
    writeFileSync(lock, record({startTime: String(Number(startTime) - 1)}), {mode: 0o600})
    take('tapir stop')()
    writeFileSync(lock, record({argv: ['sleep', '60']}), {mode: 0o600})
    take('tapir stop')()
    expect(readdirSync(dir.path)).toEqual([])
  })

  it('that is a symbolic link: refused, left in place', () => {
    symlinkSync(join(dir.path, 'elsewhere'), lock)
    expect(() => take('tapir start')).toThrow(
      new TapirError(
        `Refusing the session file ${lock}: it is a symbolic link. tapir reads and writes its session files only in place.`,
        'local',
      ),
    )
    expect(readdirSync(dir.path)).toEqual(['state.json.lock'])
  })

  it.skipIf(process.getuid?.() !== 0)("that is another user's: refused, left in place", () => {
    writeFileSync(lock, gone('tapir start'), {mode: 0o600})
    chownSync(lock, UNKNOWN_UID, UNKNOWN_UID)
    let failed: unknown
    try {
      take('tapir start')
    } catch (error) {
      failed = error
    }
    expect(failed).toBeInstanceOf(TapirError)
    expect((failed as TapirError).kind).toBe('local')
    expect((failed as TapirError).message).toBe(
      `Refusing the session file ${lock}: it belongs to uid ${UNKNOWN_UID}, not to you (uid 0). Remove it if you did not write it, or make it yours and private (chmod 600).`,
    )
    expect(readdirSync(dir.path)).toEqual(['state.json.lock'])
  })
})
