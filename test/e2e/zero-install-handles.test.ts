import {readFileSync} from 'node:fs'
import {afterAll, beforeAll, describe, expect, it} from 'vitest'
import {expectNoProcessLeft} from '../helpers/leftovers.js'
import {simSession, type SimSession} from '../helpers/sim.js'

expectNoProcessLeft()

/** Each find's flag, and the node its handle must name on the sign-in screen. */
const FINDS: Array<[flag: string, ref: string]> = [
  ['--text=Email', 'e2'],
  ['--text=Password', 'e4'],
  ['--semanticsLabel=Email', 'e2'],
  ['--semanticsLabel=Password', 'e4'],
  ['--text=Sign in', 'e6'],
  ['--contains=Forgot', 'e7'],
  ['--contains=mail', 'e2'],
  ['--contains=password', 'e7'],
]

// find's qN handles on an app with no package live in one file beside the session
// (src/lib/zero/handles.ts); finds run by several tapir processes at once each mint their own qN
// under the file's lock, so none is handed out twice and none is lost.
describe("find's zero-install handles, minted by several tapir processes at once", () => {
  let s: SimSession
  beforeAll(async () => {
    s = await simSession({package: 'none'})
  })
  afterAll(async () => {
    expect(s.sim.violations).toEqual([])
    await s.close()
  })

  it('gives every find its own qN, and every qN names its own node afterwards', async () => {
    // Twice over, so the second round starts from a file the first one wrote.
    for (let round = 0; round < 2; round++) {
      const found = await Promise.all(FINDS.map(([flag]) => s.spawn(['tapir:find', flag])))
      const refs = found.map((result) => {
        expect(result, result.stderr).toMatchObject({exitCode: 0, stderr: ''})
        return (JSON.parse(result.stdout) as {ref: string}).ref
      })
      expect(new Set(refs).size, refs.join(' ')).toBe(FINDS.length)
      for (const ref of refs) expect(ref).toMatch(/^q\d+$/)
      for (const [index, ref] of refs.entries()) {
        const within = await s.run(['tapir:snap', `--within=${ref}`])
        expect(within, `${ref} for ${FINDS[index]![0]}`).toMatchObject({exitCode: 0, stderr: ''})
        expect(within.stdout.split('\n')[0], `${ref} for ${FINDS[index]![0]}`).toContain(`[ref=${FINDS[index]![1]}]`)
      }
    }
    const kept = JSON.parse(readFileSync(`${s.state}.handles.json`, 'utf8')) as {next: number; handles: Record<string, unknown>}
    expect(kept.next).toBe(2 * FINDS.length + 1)
    expect(Object.keys(kept.handles)).toHaveLength(2 * FINDS.length)
    // A few dozen CLI processes, eight at a time: on a loaded machine that takes a while.
  }, 120_000)
})
