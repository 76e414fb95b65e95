import {spawn, type ChildProcess} from 'node:child_process'
import {existsSync, readFileSync, unlinkSync, writeFileSync} from 'node:fs'
import {afterAll, afterEach, describe, expect, it} from 'vitest'
import {TapirError} from '../../src/lib/errors.js'
import {exitCodeFor} from '../../src/lib/output/exit-codes.js'
import {recordProcess, type OwnedProcess} from '../../src/lib/session/owned-process.js'
import {sidecarState} from '../../src/lib/session/sidecar-state.js'
import {tempDir} from '../helpers/cli.js'
import {namedSessionIn} from '../helpers/named-session.js'

// The lock an update of a sidecar file takes (find's zero-install handles are one): a holder that
// is gone never blocks it; a live one that keeps it is waited for a bounded time, then named.
describe.skipIf(process.platform !== 'linux')("a sidecar state's update, under its lock", () => {
  const dir = tempDir('tapir-sidecar-')
  const location = namedSessionIn(dir.path)
  const counter = sidecarState('counter.json', 'the counter')
  const file = counter.path(location)
  const lock = `${file}.lock`
  const add = (state: unknown) => {
    const now = typeof state === 'number' ? state : 0
    return {state: now + 1, answer: now + 1}
  }
  const children: ChildProcess[] = []

  async function sleeper(): Promise<{child: ChildProcess; record: OwnedProcess}> {
    const child = spawn('sleep', ['60'], {stdio: 'ignore'})
    children.push(child)
    await new Promise((resolve) => child.once('spawn', resolve))
    return {child, record: recordProcess(child.pid!, ['sleep', '60'])!}
  }
  const lockOf = (record: OwnedProcess) => JSON.stringify({...record, command: 'tapir:find', since: new Date().toISOString()})

  afterEach(() => {
    for (const child of children.splice(0)) child.kill('SIGKILL')
  })
  afterAll(() => dir.remove())

  it('reads, changes and writes the state, and leaves no lock behind', async () => {
    expect(await counter.update(location, 'tapir:find', add)).toBe(1)
    expect(await Promise.all([1, 2, 3].map(() => counter.update(location, 'tapir:find', add)))).toEqual([2, 3, 4])
    expect(JSON.parse(readFileSync(file, 'utf8'))).toBe(4)
    expect(existsSync(lock)).toBe(false)
  })

  it('takes over at once the lock of a holder that is gone (killed mid-update)', async () => {
    const {child, record} = await sleeper()
    child.kill('SIGKILL')
    await new Promise((resolve) => child.once('exit', resolve))
    writeFileSync(lock, lockOf(record), {mode: 0o600})
    const started = Date.now()
    expect(await counter.update(location, 'tapir:find', add)).toBe(5)
    expect(Date.now() - started).toBeLessThan(1000)
    expect(existsSync(lock)).toBe(false)
  })

  it('waits for a live holder, and gets the lock once it lets go', async () => {
    const {record} = await sleeper()
    writeFileSync(lock, lockOf(record), {mode: 0o600})
    const answer = counter.update(location, 'tapir:find', add)
    await new Promise((resolve) => setTimeout(resolve, 300))
    expect(JSON.parse(readFileSync(file, 'utf8'))).toBe(5)
    unlinkSync(lock) // what the holder's release does
    expect(await answer).toBe(6)
  })

  it('fails naming a live holder that keeps the lock past the bound, and changes nothing', async () => {
    const {child, record} = await sleeper()
    writeFileSync(lock, lockOf(record), {mode: 0o600})
    const started = Date.now()
    const failed = await counter.update(location, 'tapir:find', add).catch((error: unknown) => error)
    expect(Date.now() - started).toBeGreaterThanOrEqual(5000)
    expect(failed).toBeInstanceOf(TapirError)
    expect(exitCodeFor(failed)).toBe(1)
    expect((failed as TapirError).message).toBe(
      `Another tapir (pid ${child.pid}, \`tapir tapir:find\`) has kept the counter locked for 5 s; if it is stuck, stop it, then try again. Lock: ${lock}`,
    )
    expect(JSON.parse(readFileSync(file, 'utf8'))).toBe(6)
    expect(existsSync(lock)).toBe(true)
  }, 15_000)
})
