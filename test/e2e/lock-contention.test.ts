import {spawn} from 'node:child_process'
import {readFileSync, readdirSync, writeFileSync} from 'node:fs'
import {join} from 'node:path'
import {afterAll, describe, expect, it} from 'vitest'
import {ROOT, tempDir} from '../helpers/cli.js'

const CONTENDER = join(ROOT, 'test', 'fixtures', 'lock-contender.mjs')
const PROCESSES = 8

// Many tapir processes started at once contend for one sidecar file's lock (find's qN handles
// are minted under one), left by a holder that is gone; each one that gets it is killed holding
// it, so every hand-over is a takeover of a stale lock by the processes still waiting. Each gets
// in exactly once, never two at once (test/fixtures/lock-contender.mjs says how that is seen).
// test/unit/lock-takeover.test.ts holds the takeover at every interleaving of two processes.
describe.skipIf(process.platform !== 'linux')('a sidecar lock whose holders are killed one after another', () => {
  const dir = tempDir('tapir-lock-contention-')
  afterAll(() => dir.remove())

  it(`is taken over by each of ${PROCESSES} waiting processes in turn, one at a time`, async () => {
    const lock = join(dir.path, 'state.json.counter.json.lock')
    writeFileSync(lock, JSON.stringify({pid: 4_000_000, argv: ['true'], startTime: '1', command: 'tapir:find', since: 'x'}), {mode: 0o600})
    const children = Array.from({length: PROCESSES}, () =>
      spawn(process.execPath, [CONTENDER, dir.path], {stdio: ['ignore', 'pipe', 'inherit']}),
    )
    const exits = children.map((child) => new Promise<string | null>((resolve) => child.once('exit', (_code, signal) => resolve(signal))))
    await Promise.all(children.map((child) => new Promise((resolve) => child.stdout!.once('data', resolve))))
    writeFileSync(join(dir.path, 'go'), '')
    expect(await Promise.all(exits)).toEqual(children.map(() => 'SIGKILL'))
    const log = readFileSync(join(dir.path, 'log'), 'utf8').trim().split('\n').sort()
    expect(log).toEqual(children.map((child) => `inside ${child.pid}`).sort())
    // The last one died holding it; no claim of a takeover is left behind.
    expect(readdirSync(dir.path).sort()).toEqual(['go', 'log', 'state.json.counter.json.lock'])
  })
})
