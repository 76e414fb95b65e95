import {spawn, type ChildProcess} from 'node:child_process'
import {existsSync, readFileSync, writeFileSync} from 'node:fs'
import {afterAll, afterEach, describe, expect, it} from 'vitest'
import {HoldStack} from '../../src/lib/session/hold-stack.js'
import {recordProcess} from '../../src/lib/session/owned-process.js'
import {boolean, number, object} from '../../src/lib/shape.js'
import {tempDir} from '../helpers/cli.js'
import {namedSessionIn} from '../helpers/named-session.js'

const held = object({width: number, height: number, dpr: number, mobile: boolean, touch: boolean})
const PHONE = {width: 375, height: 812, dpr: 3, mobile: true, touch: true}

describe.skipIf(process.platform !== 'linux')('the holders of one page (resize --hold), in the stack file beside the session', () => {
  const dir = tempDir('tapir-holds-')
  const location = namedSessionIn(dir.path)
  const file = `${location.path}.holds`
  const stack = () => new HoldStack(location, file, held)
  const children: ChildProcess[] = []

  /** Live processes of this test's own, recorded as tapir records a holder. */
  async function liveRecords(count: number) {
    const spawned = Array.from({length: count}, () => spawn('sleep', ['60'], {stdio: 'ignore'}))
    children.push(...spawned)
    await Promise.all(spawned.map((child) => new Promise((resolve) => child.once('spawn', resolve))))
    return spawned.map((child) => recordProcess(child.pid!, ['sleep', '60'])!)
  }

  afterEach(() => {
    for (const child of children.splice(0)) child.kill('SIGKILL')
  })
  afterAll(() => dir.remove())

  it('a holder goes on top; when the last one leaves, the file and its lock go too', async () => {
    const applied: string[] = []
    const key = await stack().push(PHONE, async () => void applied.push('push'))
    expect(applied).toEqual(['push'])
    const written = JSON.parse(readFileSync(file, 'utf8'))
    expect(written).toMatchObject({generation: 1, holders: [{pid: process.pid, held: PHONE}]})
    expect(key).toBe(`1:${process.pid}`)
    await stack().leave(async () => void applied.push('undo'))
    expect(applied).toEqual(['push', 'undo'])
    expect(existsSync(file)).toBe(false)
    expect(existsSync(`${file}.lock`)).toBe(false)
  })

  it('the one on top applies again only when the stack changed; an entry whose process is not the one recorded counts for nothing', async () => {
    const [other] = await liveRecords(1)
    const applied: number[] = []
    const apply = async () => void applied.push(1)
    const mine = stack()
    let key = await mine.push(PHONE, apply)
    expect(await mine.reapply(key, apply)).toBe(key)
    expect(applied).toHaveLength(1)
    // Someone came on top and left again: the stack's generation moved on.
    const state = JSON.parse(readFileSync(file, 'utf8'))
    writeFileSync(file, JSON.stringify({...state, generation: state.generation + 2}), {mode: 0o600})
    key = await mine.reapply(key, apply)
    expect(applied).toHaveLength(2)
    // A planted entry on top: a live pid whose record (start time) is not that process's.
    const planted = {...other!, startTime: '1', held: PHONE, since: new Date().toISOString()}
    writeFileSync(file, JSON.stringify({generation: 9, holders: [...JSON.parse(readFileSync(file, 'utf8')).holders, planted]}))
    await mine.reapply(key, apply)
    expect(applied).toHaveLength(3) // still the newest live holder
    await mine.leave(async () => {})
    expect(existsSync(file)).toBe(false)
  })

  it('a holder the file lost (torn or overwritten while it holds) goes back in, in its place by start', async () => {
    const [other] = await liveRecords(1)
    const applied: string[] = []
    const mine = stack()
    const key = await mine.push(PHONE, async () => void applied.push('push'))
    writeFileSync(file, '{"generation": 3, "holders": [', {mode: 0o600})
    const after = await mine.reapply(key, async () => void applied.push('again'))
    expect(applied).toEqual(['push', 'again'])
    expect(JSON.parse(readFileSync(file, 'utf8'))).toMatchObject({generation: 1, holders: [{pid: process.pid, held: PHONE}]})
    expect(after).toBe(`1:${process.pid}`)
    // Lost again, with a newer holder written over it: it goes back beneath that one, and does not apply.
    const newer = {...other!, held: {...PHONE, width: 390}, since: new Date(Date.now() + 1000).toISOString()}
    writeFileSync(file, JSON.stringify({generation: 7, holders: [newer]}), {mode: 0o600})
    await mine.reapply(after, async () => void applied.push('over the newer'))
    expect(applied).toEqual(['push', 'again'])
    expect(JSON.parse(readFileSync(file, 'utf8')).holders.map((holder: {pid: number}) => holder.pid)).toEqual([process.pid, other!.pid])
    await mine.leave(async () => {})
    expect(JSON.parse(readFileSync(file, 'utf8')).holders.map((holder: {pid: number}) => holder.pid)).toEqual([other!.pid])
  })

  it('a 17th holder is refused, naming the pids that hold; the stack is left as it was', async () => {
    const records = await liveRecords(16)
    const text = JSON.stringify({
      generation: 4,
      holders: records.map((record) => ({...record, held: PHONE, since: new Date().toISOString()})),
    })
    writeFileSync(file, text, {mode: 0o600})
    let applied = false
    await expect(
      stack().push(PHONE, async () => {
        applied = true
      }),
    ).rejects.toThrow(
      `16 tapir:resize --hold holders already hold this session's page (pids ${records.map((record) => record.pid).join(', ')}). End one first (kill -INT <pid>).`,
    )
    expect(applied).toBe(false)
    expect(readFileSync(file, 'utf8')).toBe(text)
  })
})
