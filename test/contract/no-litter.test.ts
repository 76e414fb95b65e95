import {readdirSync} from 'node:fs'
import {join} from 'node:path'
import {execa} from 'execa'
import {describe, expect, it} from 'vitest'
import {ROOT, tempDir} from '../helpers/cli.js'

describe('tests clean up after themselves', () => {
  it('a test file that spawns the CLI leaves nothing in the temp folder', async () => {
    const tmp = tempDir('tapir-litter-')
    try {
      const run = await execa(process.execPath, [join(ROOT, 'node_modules', 'vitest', 'vitest.mjs'), 'run', 'test/e2e/help.test.ts'], {
        cwd: ROOT,
        env: {TMPDIR: tmp.path},
        reject: false,
        timeout: 120_000,
      })
      expect(run.exitCode, run.stdout + run.stderr).toBe(0)
      // Kept on purpose: the compiled code of tapir's bundles, by Node 22+ itself or by bin/run.cjs
      // on Node 20 (docs/architecture.md, Start-up).
      const caches = [`tapir-compile-cache-${process.getuid?.()}`, 'node-compile-cache']
      expect(readdirSync(tmp.path).filter((name) => !caches.includes(name))).toEqual([])
    } finally {
      tmp.remove()
    }
  }, 150_000)
})
