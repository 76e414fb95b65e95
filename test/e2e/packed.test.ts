import {symlinkSync} from 'node:fs'
import {join} from 'node:path'
import {execa} from 'execa'
import {describe, expect, it} from 'vitest'
import {isAlive} from '../../src/lib/session/process.js'
import {markEnv, ROOT, tempDir} from '../helpers/cli.js'
import {copyProject} from '../helpers/golden.js'
import {expectNoProcessLeft} from '../helpers/leftovers.js'

expectNoProcessLeft()

describe('the packed tarball', () => {
  // Packing, then five runs of tapir, one of them a start: more than the default 30 s on a busy machine.
  it('runs on its own files: start --device=sim, a verb, stop, and install with its Dart parser', async () => {
    const scratch = tempDir('tapir-packed-')
    const unpacked = join(scratch.path, 'package')
    const env = {HOME: scratch.path, NO_COLOR: '1', TAPIR_STATE_FILE: join(scratch.path, 'state.json'), ...markEnv()}
    const tapir = (args: string[]) =>
      execa(process.execPath, [join(unpacked, 'bin', 'run.cjs'), ...args], {cwd: scratch.path, env, reject: false, timeout: 60_000})
    try {
      // --ignore-scripts: dist/ is already built (pretest), and prepack would rebuild it under the tests beside this one.
      const pack = await execa('npm', ['pack', '--json', '--ignore-scripts', '--pack-destination', scratch.path], {cwd: ROOT})
      const tarball = join(scratch.path, (JSON.parse(pack.stdout) as Array<{filename: string}>)[0]!.filename)
      await execa('tar', ['-xzf', tarball, '-C', scratch.path])
      // The project's node_modules stands in for `npm install`; which packages must be runtime
      // dependencies is test/contract/package.test.ts's business.
      symlinkSync(join(ROOT, 'node_modules'), join(unpacked, 'node_modules'))

      const start = await tapir(['start', '--device=sim'])
      expect(start.exitCode, start.stderr).toBe(0)
      const pid = Number(/sim pid=(\d+)/.exec(start.stdout)?.[1])
      expect((await execa('ps', ['-o', 'args=', '-p', String(pid)])).stdout).toContain(join(unpacked, 'dist', 'sim', 'main.js'))
      expect((await tapir(['tapir:snap', '--interactiveOnly'])).stdout).toContain('- button "Sign in" [ref=e4]')
      expect((await tapir(['stop'])).exitCode).toBe(0)
      expect(isAlive(pid)).toBe(false)

      copyProject('counter', join(scratch.path, 'app'))
      const install = await tapir(['install', '--dry-run', `--project=${join(scratch.path, 'app')}`])
      expect(install.exitCode, install.stderr).toBe(0)
      expect(install.stdout).toContain('+    TapirPlugin.install(); // added by tapir install')
    } finally {
      await tapir(['stop'])
      scratch.remove()
    }
  }, 120_000)
})
