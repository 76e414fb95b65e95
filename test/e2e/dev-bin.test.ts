import {join} from 'node:path'
import {execa} from 'execa'
import {describe, expect, it} from 'vitest'
import {isAlive} from '../../src/lib/session/process.js'
import {ROOT, tempDir} from '../helpers/cli.js'

const DEV = join(ROOT, 'bin', 'dev.js')

describe('bin/dev.js', () => {
  // Four runs that each compile the sources they load: more than the default 30 s on a busy machine.
  it('runs tapir from the TypeScript sources, the background sim included', async () => {
    const scratch = tempDir()
    const env = {HOME: scratch.path, NO_COLOR: '1', TAPIR_STATE_FILE: join(scratch.path, 'state.json')}
    const dev = (args: string[]) => execa(process.execPath, [DEV, ...args], {cwd: scratch.path, env, reject: false, timeout: 60_000})
    try {
      const start = await dev(['start', '--device=sim'])
      expect(start.exitCode, start.stderr).toBe(0)
      const pid = Number(/sim pid=(\d+)/.exec(start.stdout)?.[1])
      expect((await execa('ps', ['-o', 'args=', '-p', String(pid)])).stdout).toContain(join(ROOT, 'src', 'sim', 'main.ts'))
      const snap = await dev(['tapir:snap', '--interactiveOnly'])
      expect(snap.stdout).toContain('- button "Sign in" [ref=e4]')
      expect((await dev(['stop'])).exitCode).toBe(0)
      expect(isAlive(pid)).toBe(false)
    } finally {
      await dev(['stop'])
      scratch.remove()
    }
  }, 120_000)
})
