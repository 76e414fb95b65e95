import {writeFileSync} from 'node:fs'
import {join} from 'node:path'
import {afterAll, beforeAll, describe, expect, it} from 'vitest'
import {AppConnection} from '../../src/lib/vm/app-connection.js'
import {Deadline} from '../../src/lib/vm/deadline.js'
import {RpcError} from '../../src/lib/vm/rpc-error.js'
import {pointerEventOf, pointerEvents} from '../../src/lib/zero/dart.js'
import {FRAMEWORK_EXTENSIONS} from '../../src/sim/server/flutter-framework.js'
import {tapir, tempDir} from '../helpers/cli.js'
import {expectNoProcessLeft} from '../helpers/leftovers.js'
import {refOf, simSession, type SimSession} from '../helpers/sim.js'

expectNoProcessLeft()

/** The quick start through refs read from each snapshot: sign in, open a monitor, back. */
async function quickStart(s: SimSession): Promise<void> {
  const signIn = await s.run(['tapir:snap', '--interactiveOnly'])
  expect(signIn).toMatchObject({exitCode: 0, stderr: ''})
  expect(signIn.stdout).toContain('- textbox "Email" [ref=e2]\n  typeable: true\n')
  const fillEmail = await s.run(['tapir:fill', `--ref=${refOf(signIn.stdout, /textbox "Email"/)}`, '--text=ada@example.com'])
  expect(fillEmail).toMatchObject({exitCode: 0, stdout: `✓ Filled ${refOf(signIn.stdout, /textbox "Email"/)}`, stderr: ''})
  // A quote, a dollar and a backslash reach the field as typed: escaped into a Dart literal.
  const fillPassword = await s.run(['tapir:fill', `--ref=${refOf(signIn.stdout, /textbox "Password"/)}`, `--text=it's $x\\y`])
  expect(fillPassword).toMatchObject({exitCode: 0, stderr: ''})
  const filled = await s.run(['tapir:snap', '--grep=Email'])
  expect(filled.stdout).toContain('- textbox "Email": "ada@example.com"')
  expect(await s.run(['tapir:tap', `--ref=${refOf(signIn.stdout, /button "Sign in"/)}`])).toMatchObject({exitCode: 0, stderr: ''})
  const monitors = await s.run(['tapir:snap', '--interactiveOnly'])
  expect(monitors.stdout).toContain('- heading "Monitors"')
  expect(await s.run(['tapir:tap', `--ref=${refOf(monitors.stdout, /button "API"/)}`])).toMatchObject({exitCode: 0})
  const detail = await s.run(['tapir:snap', '--interactiveOnly'])
  expect(detail.stdout).toContain('- heading "API"')
  expect(await s.run(['tapir:tap', `--ref=${refOf(detail.stdout, /button "Back"/)}`])).toMatchObject({exitCode: 0})
  expect((await s.run(['tapir:snap', '--interactiveOnly'])).stdout).toContain('- heading "Monitors"')
}

describe('a debug app with no package (--package=none), driven zero-install from the CLI', () => {
  let s: SimSession
  beforeAll(async () => {
    s = await simSession({package: 'none'})
  })
  afterAll(async () => {
    expect(s.sim.requests.filter((request) => /^ext\.(tapir|dusk)\./.test(request.method))).toEqual([])
    expect(s.sim.violations).toEqual([])
    await s.close()
  })

  it("registers Flutter's own extensions and no ext.tapir.*", async () => {
    const app = await AppConnection.open(s.sim.wsUri, 5000)
    try {
      const names = await app.extensionRPCs(new Deadline(5000))
      expect(names).toEqual(FRAMEWORK_EXTENSIONS.map((extension) => extension.name))
      expect(await app.appPackage(new Deadline(5000))).toBeUndefined()
    } finally {
      app.client.close()
    }
  })

  it('finds by label: find answers a qN handle, its predicate run again over the tree at each use', async () => {
    const found = await s.run(['tapir:find', '--text=Password'])
    expect(found).toMatchObject({exitCode: 0, stderr: ''})
    expect(JSON.parse(found.stdout)).toEqual({matched: true, ref: 'q1', matchCount: 1})
    // The next tapir process resolves q1 from the session: the field whose label is Password.
    expect(await s.run(['tapir:fill', '--ref=q1', '--text=hunter22'])).toMatchObject({exitCode: 0, stdout: '✓ Filled q1', stderr: ''})
    expect((await s.run(['tapir:snap', '--grep=Password'])).stdout).toContain('- textbox "Password": "••••••••" [ref=e4]')
    expect(await s.run(['tapir:fill', '--ref=q1', '--text='])).toMatchObject({exitCode: 0})
    const unknown = await s.run(['tapir:tap', '--ref=q99'])
    expect(unknown).toMatchObject({exitCode: 3, stdout: '', stderr: '✗ No handle q99 in this session: tapir:find again.'})
    const observed = JSON.parse((await s.run(['tapir:observe', '--roles=textbox'])).stdout) as {candidates: unknown[]}
    expect(observed.candidates).toEqual([
      {ref: 'e2', role: 'textbox', label: 'Email'},
      {ref: 'e4', role: 'textbox', label: 'Password'},
    ])
    // limit reaches observe as the CLI typed it, as the package's observe takes it.
    const limited = JSON.parse((await s.run(['tapir:observe', '--limit=2'])).stdout) as {candidates: unknown[]}
    expect(limited.candidates).toEqual([
      {ref: 'e1', role: 'heading', label: 'Sign in'},
      {ref: 'e2', role: 'textbox', label: 'Email'},
    ])
    const byKey = await s.run(['tapir:find', '--key=email'])
    expect(byKey).toMatchObject({exitCode: 1, stdout: ''})
    expect(byKey.stderr).toMatch(/^✗ find by key has no zero-install form: keys are not in the semantics tree/)
  })

  it('status and doctor say zero-install in one line, with what the package adds and tapir install', async () => {
    const status = await s.run(['status', '--json'])
    expect(status.exitCode).toBe(0)
    expect(status.stdout).toMatch(/"zeroInstall": "zero-install: .*actionability gates.*\(run tapir install\)\."/)
    const doctor = await s.run(['doctor'])
    expect(doctor.stdout + doctor.stderr).toMatch(/tapir: zero-install: the app runs no tapir package.*run tapir install/)
  })

  it('signs in, opens a monitor and goes back, through refs', async () => {
    await quickStart(s)
  })

  it('refuses a verb with no zero-install form in one line naming tapir install', async () => {
    const refused = await s.run(['tapir:reset_overlays'])
    expect(refused.exitCode).toBe(1)
    expect(refused.stdout).toBe('')
    expect(refused.stderr.trim().split('\n')).toHaveLength(1)
    expect(refused.stderr).toMatch(/^✗ tapir:reset_overlays has no zero-install form yet .*run tapir install/)
  })

  it('a ref that names no live node is a stale ref, exit 3', async () => {
    const stale = await s.run(['tapir:tap', '--ref=e9999'])
    expect(stale).toMatchObject({exitCode: 3, stdout: ''})
    expect(stale.stderr).toMatch(/No node e9999 on screen now/)
  })

  it("the sim's compiler refuses tapir's pointer expression with one named argument changed", async () => {
    const app = await AppConnection.open(s.sim.wsUri, 5000)
    try {
      // What tapir sends for a tap: the down and the up, one cascade (dart.ts pointerEvents).
      const real = pointerEvents([pointerEventOf('PointerDownEvent', 10, 10), pointerEventOf('PointerUpEvent', 10, 10)])
      const wrong = real.source.replace('position:', 'positon:')
      await expect(app.evaluateInLibrary(real.library, wrong, new Deadline(5000))).rejects.toSatisfy(
        (error) =>
          error instanceof RpcError &&
          error.code === 113 &&
          /Error: No named parameter with the name 'positon'\./.test(error.details ?? ''),
      )
      // Unchanged, it compiles: a tap at (10, 10), on nothing there; the cascade answers the binding.
      expect(await app.evaluateInLibrary(real.library, real.source, new Deadline(5000))).toMatchObject({
        kind: 'PlainInstance',
        class: {name: 'GestureBinding'},
      })
    } finally {
      app.client.close()
    }
  })
})

describe('a default sim whose ext.tapir.* a test hides', () => {
  let s: SimSession
  beforeAll(async () => {
    s = await simSession({faults: {extensionsMissing: true}, flutterTool: true})
  })
  afterAll(async () => {
    expect(s.sim.requests.filter((request) => /^ext\.(tapir|dusk)\./.test(request.method))).toEqual([])
    await s.close()
  })

  it('signs in, opens a monitor and goes back, zero-install; status says so', async () => {
    const status = await s.run(['status', '--json'])
    expect(status.exitCode).toBe(0)
    expect(status.stdout).toMatch(/"zeroInstall": "zero-install: .*\(run tapir install\)\."/)
    await quickStart(s)
  })

  it('the same flow as one tapir:run, through labels and refs, after a hot restart', async () => {
    expect(await s.run(['hot-restart'])).toMatchObject({exitCode: 0})
    const run = await s.run([
      'tapir:run',
      'find --text=Email --as=email',
      'fill --ref=@email --text=ada@example.com',
      'find --semanticsLabel=Password --as=password',
      'fill --ref=@password --text=hunter22',
      "find --semanticsLabel='Sign in' --as=go --matches=2",
      'tap --ref=@go',
      'wait --text=Monitors',
      'find --text=API --as=api',
      'tap --ref=@api',
      'snap --grep=^Back$',
      'tap --ref=e70',
      "wait --textGone='Back'",
      'snap --grep=^Monitors$',
    ])
    expect(run.exitCode, run.stdout + run.stderr).toBe(0)
    expect(run.stdout).toContain('- button "Back" [ref=e70]')
    expect(run.stdout).toMatch(/\[13\/13\] snap --grep=\^Monitors\$ ok:\n- heading "Monitors" \[ref=e8\]\n/)
  })

  it('the same flow as a tapir test flow, with its default --fresh=restart', async () => {
    const project = tempDir('tapir-zero-hidden-suite-')
    try {
      const flow = [
        'find --text=Email --as=email',
        'fill --ref=@email --text=ada@example.com',
        'fill --ref=e4 --text=hunter22',
        'tap --ref=e6',
        'wait --text=Monitors',
        'tap --ref=e14',
        'wait --text=Back',
        'tap --ref=e70',
        "wait --textGone='Back'",
      ]
      writeFileSync(join(project.path, 'quickstart.tapir'), `${flow.join('\n')}\n`)
      const result = await tapir(['test', 'quickstart.tapir', '--reporter=list', '--state', s.state], {cwd: project.path})
      expect(result.exitCode, result.stdout + result.stderr).toBe(0)
      expect(result.stdout).toMatch(/^✓ quickstart\.tapir \(\d+\.\d\d s\)$/m)
    } finally {
      project.remove()
    }
  })
})

describe('a web app with no package: reading everywhere, acting where DWDS has evaluate', () => {
  it('in WebSocket mode (-d web-server) snap works and fill is refused in one line naming why', async () => {
    const s = await simSession({package: 'none', mode: 'dwds-websocket'})
    try {
      const snap = await s.run(['tapir:snap', '--interactiveOnly'])
      expect(snap).toMatchObject({exitCode: 0, stderr: ''})
      expect(snap.stdout).toContain('- button "Sign in" [ref=e6]')
      const fill = await s.run(['tapir:fill', '--ref=e2', '--text=ada@example.com'])
      expect(fill).toMatchObject({exitCode: 1, stdout: ''})
      expect(fill.stderr.trim().split('\n')).toHaveLength(1)
      expect(fill.stderr).toMatch(/^✗ Acting needs evaluate, which this app's debug service does not offer .*-d chrome.*tapir install\.$/m)
    } finally {
      await s.close()
    }
  })

  it("through DWDS's Chrome proxy the sign-in works", async () => {
    const s = await simSession({package: 'none', mode: 'dwds'})
    try {
      expect(
        await s.run(['tapir:run', 'fill --ref=e2 --text=ada@example.com', 'fill --ref=e4 --text=hunter22', 'tap --ref=e6']),
      ).toMatchObject({
        exitCode: 0,
      })
      expect((await s.run(['tapir:snap', '--interactiveOnly'])).stdout).toContain('- heading "Monitors"')
    } finally {
      await s.close()
    }
  })
})

describe('the quick start as one tapir:run on a fresh app with no package', () => {
  let s: SimSession
  beforeAll(async () => {
    s = await simSession({package: 'none'})
  })
  afterAll(async () => {
    await s.close()
  })

  it('the same flow as one tapir:run, refs being semantics ids; then a scroll by a finger swipe', async () => {
    const run = await s.run([
      'tapir:run',
      'find --text=Email --as=email',
      'fill --ref=@email --text=ada@example.com',
      'find --semanticsLabel=Password --as=password',
      'fill --ref=@password --text=hunter22',
      "find --text='Sign in' --within=e6 --as=go",
      'tap --ref=@go',
      'snap --grep=^API$',
      'tap --ref=e14',
      'snap --grep=^API$',
      'tap --ref=e70',
      'tap --ref=e69',
    ])
    expect(run.exitCode, run.stderr).toBe(0)
    expect(run.stdout).toContain('- button "API" [ref=e14]')
    expect(run.stdout).toContain('- heading "API" [ref=e71]')
    expect((await s.run(['tapir:snap', '--grep=^Settings$'])).stdout).toBe('- heading "Settings" [ref=e56]\n- button "Settings" [ref=e69]')
    const scrolled = await s.run(['tapir:scroll', '--ref=e63', '--pixels=300'])
    expect(scrolled).toMatchObject({exitCode: 0, stdout: '✓ Scrolled around e63 down 300 px', stderr: ''})
    expect((await s.run(['tapir:snap', '--grep=^Settings$'])).stdout).toContain('- heading "Settings" [ref=e56] [offscreen]')
    const offscreen = await s.run(['tapir:tap', '--ref=e56'])
    expect(offscreen).toMatchObject({exitCode: 3, stdout: '', stderr: '✗ e56 is off screen: scroll it into view first.'})
    expect((await s.run(['tapir:scroll', '--ref=e63', '--direction=up', '--pixels=300'])).exitCode).toBe(0)
    expect((await s.run(['tapir:tap', '--ref=e68'])).exitCode).toBe(0)
  })
})

describe('the quick start as a tapir test flow, on an app with no package', () => {
  it('passes, reported as one line', async () => {
    const s = await simSession({package: 'none', flutterTool: true})
    const project = tempDir('tapir-zero-suite-')
    try {
      const flow = [
        'fill --ref=e2 --text=ada@example.com',
        'fill --ref=e4 --text=hunter22',
        'tap --ref=e6',
        'tap --ref=e14',
        'tap --ref=e70',
        'snap --grep=^Monitors$',
      ]
      writeFileSync(join(project.path, 'quickstart.tapir'), `# sign in, open a monitor, back\n${flow.join('\n')}\n`)
      const result = await tapir(['test', 'quickstart.tapir', '--fresh=none', '--reporter=list', '--state', s.state], {cwd: project.path})
      expect(result.exitCode, result.stdout + result.stderr).toBe(0)
      expect(result.stdout).toMatch(/^✓ quickstart\.tapir \(\d+\.\d\d s\)$/m)
    } finally {
      project.remove()
      await s.close()
    }
  })
})
