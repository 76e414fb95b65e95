import {readFileSync, writeFileSync} from 'node:fs'
import {join} from 'node:path'
import {afterAll, beforeAll, describe, expect, it} from 'vitest'
import {DEFAULT_VIEW} from '../../src/sim/app/geometry.js'
import {tapir, tempDir} from '../helpers/cli.js'
import {expectNoProcessLeft} from '../helpers/leftovers.js'
import {simSession, type SimSession} from '../helpers/sim.js'

expectNoProcessLeft()

// Waits, console, exceptions, screenshot and perf on a debug app with no package: one sim for the
// file, signed in once by the first test.
describe('a debug app with no package: waits, streams, screenshot, perf', () => {
  let s: SimSession
  beforeAll(async () => {
    s = await simSession({package: 'none', flutterTool: true, mode: 'dds'})
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
      'tap --ref=e6',
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

  it("console reads the app's Logging and Stdout streams as DDS kept them, newest first", async () => {
    const all = await s.run(['tapir:console', '--json'])
    expect(all).toMatchObject({exitCode: 0, stderr: ''})
    const {logs, count} = JSON.parse(all.stdout) as {logs: Array<Record<string, string>>; count: number}
    expect(count).toBe(logs.length)
    expect(logs[0]).toMatchObject({level: 'INFO', message: 'GET /api/monitors', logger: 'monitors.http'})
    expect(logs).toContainEqual(expect.objectContaining({level: 'INFO', message: 'Signed in as ada@example.com', logger: 'stdout'}))
    const times = logs.map((entry) => entry.time!)
    expect(times).toEqual([...times].sort().reverse())
    expect(logs).toContainEqual(
      expect.objectContaining({level: 'WARNING', message: 'sign-in refused: incomplete credentials', logger: 'monitors.auth'}),
    )
    expect(logs).toContainEqual(expect.objectContaining({message: 'Sign-in refused: email or password missing', logger: 'stdout'}))
    expect(Date.parse(logs[0]!.time)).toBeGreaterThan(Date.now() - 120_000)
    const warnings = JSON.parse((await s.run(['tapir:console', '--minLevel=WARNING', '--limit=5', '--json'])).stdout)
    expect(warnings).toEqual({logs: [expect.objectContaining({logger: 'monitors.auth', level: 'WARNING'})], count: 1})
  })

  it('a qN handle is its predicate run again at each use: the same Back on two pages, two nodes', async () => {
    const run = await s.run([
      'tapir:run',
      'find --text=API --as=api',
      'tap --ref=@api',
      'find --text=Back --as=back',
      'snap --interactiveOnly --grep=^Back$',
      'tap --ref=@back',
      'find --text=Web --as=web',
      'tap --ref=@web',
      'snap --interactiveOnly --grep=^Back$',
      'tap --ref=@back',
      'wait --text=Monitors',
    ])
    expect(run.exitCode, run.stdout + run.stderr).toBe(0)
    const backs = [...run.stdout.matchAll(/- button "Back" \[ref=(e\d+)\]/g)].map((match) => match[1])
    expect(backs).toHaveLength(2)
    // Two nodes, one handle: the first page's eN names nothing once its page is gone.
    expect(backs[0]).not.toBe(backs[1])
    expect(run.stdout).toMatch(/"ref": ?"q\d+"/)
  })

  it('exceptions reads Flutter.Error events off the Extension stream; --clear is refused, --since works', async () => {
    const before = new Date().toISOString()
    const none = JSON.parse((await s.run(['tapir:exceptions', '--json'])).stdout)
    expect(none).toEqual({exceptions: [], count: 0})
    const open = await s.run(['tapir:run', 'find --text=Settings --as=settings', 'tap --ref=@settings', 'wait --text=Region'])
    expect(open.exitCode, open.stderr).toBe(0)
    const read = await s.run(['tapir:exceptions', '--json'])
    expect(read).toMatchObject({exitCode: 0, stderr: ''})
    const {exceptions} = JSON.parse(read.stdout) as {exceptions: Array<Record<string, string>>}
    expect(exceptions).toHaveLength(1)
    expect(exceptions[0]).toMatchObject({type: 'FlutterError', library: 'rendering library'})
    expect(exceptions[0]!.message).toMatch(/^A RenderFlex overflowed by \d+ pixels on the right\.\nThe relevant error-causing widget was:/)
    expect(JSON.parse((await s.run(['tapir:exceptions', `--since=${new Date().toISOString()}`, '--json'])).stdout).count).toBe(0)
    expect(JSON.parse((await s.run(['tapir:exceptions', `--since=${before}`, '--json'])).stdout).count).toBe(1)
    const clear = await s.run(['tapir:exceptions', '--clear'])
    expect(clear).toMatchObject({exitCode: 1, stdout: ''})
    expect(clear.stderr).toMatch(
      /^✗ exceptions --clear has no zero-install form .*pass --since with the time of your last read, or run tapir install\.\n?$/,
    )
  })

  it("screenshot is the widget inspector's PNG of the root element, at the view's pixel ratio", async () => {
    const path = join(s.dir, 'shot.png')
    const shot = await s.run(['tapir:screenshot', `--output=${path}`])
    expect(shot).toMatchObject({exitCode: 0, stderr: ''})
    expect(shot.stdout).toMatch(/^✓ Wrote \d+ bytes \([\d.]+ KB, png\) to .*shot\.png$/)
    const bytes = readFileSync(path)
    expect(bytes.subarray(1, 4).toString('latin1')).toBe('PNG')
    const {width, height, devicePixelRatio} = DEFAULT_VIEW
    expect([bytes.readUInt32BE(16), bytes.readUInt32BE(20)]).toEqual([width * devicePixelRatio, height * devicePixelRatio])
    const jpeg = await s.run(['tapir:screenshot', `--output=${join(s.dir, 'shot.jpg')}`])
    expect(jpeg).toMatchObject({exitCode: 1, stdout: ''})
    expect(jpeg.stderr).toMatch(/^✗ A zero-install screenshot is a PNG .*--output=<file>\.png.*tapir install\.\n?$/)
    const widget = await s.run(['tapir:screenshot', `--output=${join(s.dir, 'one.png')}`, '--ref=e2'])
    expect(widget).toMatchObject({exitCode: 1, stdout: ''})
    expect(widget.stderr).toMatch(/^✗ screenshot of one widget has no zero-install form/)
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

describe('console and exceptions with no DDS in front of the app', () => {
  it('are refused in one line naming DDS and tapir install: no one kept the history', async () => {
    const s = await simSession({package: 'none'})
    try {
      const refused = await s.run(['tapir:console'])
      expect(refused).toMatchObject({exitCode: 1, stdout: ''})
      expect(refused.stderr.trim().split('\n')).toHaveLength(1)
      expect(refused.stderr).toMatch(
        /^✗ console on an app with no package reads the debug service's stream history, which only DDS keeps: .*--dds.*tapir install\./,
      )
    } finally {
      await s.close()
    }
  })
})
