import {existsSync, writeFileSync} from 'node:fs'
import {dirname, join} from 'node:path'
import {afterAll, beforeAll, describe, expect, it} from 'vitest'
import {tapir, tempDir} from '../helpers/cli.js'
import {simSession, type SimSession} from '../helpers/sim.js'

// A typo on the command line gets what was meant: a device, a verb's flag, a verb in a flow file.
describe('a mistyped device, flag or step verb says what was meant', () => {
  let s: SimSession
  const dir = tempDir('tapir-typos-')
  beforeAll(async () => {
    s = await simSession()
  })
  afterAll(async () => {
    await s.close()
    dir.remove()
  })

  it('tapir start --device=simm with no flutter asks for --device=sim, and starts nothing', async () => {
    const state = join(dir.path, 'state.json')
    const result = await tapir(['start', '--device=simm', '--state', state], {
      cwd: dir.path,
      env: {PATH: dirname(process.execPath)},
    })
    expect(result).toMatchObject({
      exitCode: 1,
      stdout: '',
      stderr: '✗ --device=simm is not a device tapir knows, and there is no flutter to ask. Did you mean --device=sim?',
    })
    expect(existsSync(state)).toBe(false)
  })

  it("a verb's mistyped flag names the flag it meant", async () => {
    expect(await s.spawn(['tapir:snap', '--interactivOnly'])).toMatchObject({
      exitCode: 1,
      stdout: '',
      stderr: '✗ Nonexistent flag: --interactivOnly (did you mean --interactiveOnly?). See `tapir tapir:snap --help`.',
    })
  })

  it('tapir test: a mistyped verb in a flow file names the verb it meant', async () => {
    writeFileSync(join(dir.path, 'typo.tapir'), 'snap\ndouble_click --ref=e1\n')
    const result = await tapir(['test', 'typo.tapir', '--reporter=list', '--state', s.state], {cwd: dir.path})
    expect(result.exitCode).toBe(1)
    expect(result.stdout.split('\n').slice(0, 2)).toEqual([
      expect.stringMatching(/^✗ typo\.tapir \(/),
      '    typo.tapir: step 2 (line 2) (double_click --ref=e1): unknown verb "double_click". Did you mean dblclick? Steps are tapir verbs without the tapir: prefix (tap, fill, snap, ...).',
    ])
  })
})
