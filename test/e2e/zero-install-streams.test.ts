import {writeFileSync} from 'node:fs'
import {join} from 'node:path'
import {afterAll, beforeAll, describe, expect, it} from 'vitest'
import {tapir, tempDir} from '../helpers/cli.js'
import {expectNoProcessLeft} from '../helpers/leftovers.js'
import {simSession, type SimSession} from '../helpers/sim.js'

expectNoProcessLeft()

// Waits, console, exceptions, screenshot and perf on a debug app with no package: one sim for the
// file, signed in once by the first test.
describe('a debug app with no package: waits, streams, screenshot, perf', () => {
  let s: SimSession
  beforeAll(async () => {
    s = await simSession({package: 'none', flutterTool: true})
  })
  afterAll(async () => {
    expect(s.sim.requests.filter((request) => /^ext\.(tapir|dusk)\./.test(request.method))).toEqual([])
    expect(s.sim.violations).toEqual([])
    await s.close()
  })

  it('wait_for polls the semantics tree: a text that shows, one that goes, and the timeout answer', async () => {
    const shown = await s.run(['tapir:wait', '--text=Sign in', '--timeoutMs=2000'])
    expect(shown).toMatchObject({exitCode: 0, stderr: ''})
    expect(shown.stdout).toMatch(/^✓ Condition matched after \d+ ms$/)
    const never = await s.run(['tapir:wait', '--text=Monitors', '--timeoutMs=600', '--json'])
    expect(never.exitCode).toBe(1)
    expect(JSON.parse(never.stdout)).toEqual({matched: false, reason: 'timeout'})
    // The sign-in runs in one tapir:run whose last step waits for the sign-in screen to go.
    const run = await s.run([
      'tapir:run',
      'fill --ref=e2 --text=ada@example.com',
      'fill --ref=e4 --text=hunter22',
      'tap --ref=e6',
      "wait --textGone='Sign in' --timeoutMs=3000",
      'wait --text=Monitors --timeoutMs=3000',
    ])
    expect(run.exitCode, run.stderr).toBe(0)
    const gone = await s.run(['tapir:wait', '--textGone=Email', '--timeoutMs=500', '--json'])
    expect(JSON.parse(gone.stdout)).toMatchObject({matched: true})
  })

  it('after a hot restart the app is driven at once, once its first frame is drawn, not "still restarting"', async () => {
    expect(await s.run(['hot-restart'])).toMatchObject({exitCode: 0})
    const started = Date.now()
    const snap = await s.run(['tapir:snap', '--interactiveOnly'])
    expect(snap).toMatchObject({exitCode: 0, stderr: ''})
    expect(snap.stdout).toContain('- button "Sign in" [ref=e6]')
    // The restart window is 60 s and the wait for a package 10 s: neither is sat out.
    expect(Date.now() - started).toBeLessThan(8000)
  })

  it('tapir test passes with its default --fresh=restart', async () => {
    const project = tempDir('tapir-zero-fresh-')
    try {
      const flow = ['fill --ref=e2 --text=ada@example.com', 'fill --ref=e4 --text=hunter22', 'tap --ref=e6', 'wait --text=Monitors']
      writeFileSync(join(project.path, 'signin.tapir'), `${flow.join('\n')}\n`)
      writeFileSync(join(project.path, 'again.tapir'), `${flow.join('\n')}\n`)
      const result = await tapir(['test', '--reporter=list', '--state', s.state], {cwd: project.path})
      expect(result.exitCode, result.stdout + result.stderr).toBe(0)
      expect(result.stdout).toMatch(/^✓ again\.tapir \(\d+\.\d\d s\)$/m)
      expect(result.stdout).toMatch(/^✓ signin\.tapir \(\d+\.\d\d s\)$/m)
    } finally {
      project.remove()
    }
  })
})
