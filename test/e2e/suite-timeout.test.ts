import {existsSync, writeFileSync} from 'node:fs'
import {join} from 'node:path'
import {afterAll, beforeAll, describe, expect, it} from 'vitest'
import {tapir, tempDir} from '../helpers/cli.js'
import {simSession, type SimSession} from '../helpers/sim.js'

describe('a test that times out stops its step before the next test starts', () => {
  let s: SimSession
  let project: {path: string; remove(): void}

  beforeAll(async () => {
    s = await simSession({flutterTool: true})
    project = tempDir('tapir-suite-timeout-')
  })
  afterAll(async () => {
    await s.close()
    project.remove()
  })

  it('a perf_run reported timed out writes no run file, during the next test or after', async () => {
    // three rounds of 600 ms: left running, the run file would be written about 2 s in, while the
    // next three tests (each cut at 1 s) still run
    writeFileSync(join(project.path, 'slow.yaml'), 'name: slow\nplatforms: [sim]\nrepeat: 3\nsteps:\n  - wait: 600\n')
    writeFileSync(join(project.path, 'a-perf.tapir'), 'perf_run slow.yaml --out=perf\n')
    for (const name of ['b', 'c', 'd']) writeFileSync(join(project.path, `${name}-after.tapir`), 'wait --text=Nope --timeoutMs=5000\n')
    const result = await tapir(['test', '.', '--fresh=none', '--test-timeout=1000', '--reporter=list', '--state', s.state], {
      cwd: project.path,
    })
    expect(result.exitCode).toBe(1)
    const lines = result.stdout.split('\n')
    expect(lines[1]).toBe('    a-perf.tapir:1: the test timed out after 1000 ms in step 1 (perf_run slow.yaml --out=perf).')
    expect(result.stdout).toContain('4 tests: 0 passed, 4 failed')
    expect(existsSync(join(project.path, 'perf'))).toBe(false)
  })
})
