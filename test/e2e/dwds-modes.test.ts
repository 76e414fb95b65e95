import {describe, expect, it} from 'vitest'
import {flutterProject} from '../helpers/flutter-project.js'
import {expectNoProcessLeft} from '../helpers/leftovers.js'
import {signIn, withSimSession} from '../helpers/sim.js'

expectNoProcessLeft()

// The built CLI against DWDS's two modes (docs/dwds-and-vm.md): WebSocket mode, as `flutter run
// -d web-server` runs it, caps every extension call at 10 s and has no evaluate; the Chrome proxy
// of `-d chrome` evaluates unless flutter gave it no expression compiler.

describe('tapir against DWDS in WebSocket mode (flutter run -d web-server)', () => {
  const s = withSimSession({mode: 'dwds-websocket'})

  it('waits 30 s for a text that never shows as a series of calls under the 10 s cap, and reports the timeout', async () => {
    const started = Date.now()
    const result = await s.run(['tapir:wait', '--text=Nowhere to be seen', '--timeoutMs=30000'])
    expect(Date.now() - started).toBeGreaterThanOrEqual(30_000)
    expect(result.exitCode).toBe(1)
    expect(result.stderr).toMatch(/^✗ Condition did not match within the timeout/)
    expect(result.stderr).not.toContain('10 s')
  }, 60_000)

  it('goes on waiting past 10 s and matches a text that shows after 12 s', async () => {
    const asked = s.sim.requests.length
    const waiting = s.run(['tapir:wait', '--text=Monitors', '--timeoutMs=30000'])
    // The text shows only once someone signs in, 12 s after the wait's first call reached the app
    // (however long the CLI took to start on a busy machine): past the cap of one call.
    while (!s.sim.requests.slice(asked).some((request) => request.method === 'ext.tapir.wait_for'))
      await new Promise((resolve) => setTimeout(resolve, 20))
    await new Promise((resolve) => setTimeout(resolve, 12_000))
    await signIn(s)
    const result = await waiting
    expect(result.stderr).toBe('')
    expect(result.exitCode).toBe(0)
    const elapsed = Number(/after (\d+) ms/.exec(result.stdout)?.[1])
    expect(elapsed).toBeGreaterThanOrEqual(11_000)
  }, 60_000)

  it('waits past 10 s for the network to go idle', async () => {
    // A request of the app's that stays in flight for 15 s (the Monitors app's own diagnostics):
    // long enough that the CLI, however slow to start on a busy machine, still waits past 10 s.
    const model = (s.sim.app as unknown as {app: {diagnostics: {startRequest(url: string, ms: number): void}}}).app
    model.diagnostics.startRequest('GET /api/slow', 15_000)
    const result = await s.run(['tapir:wait_for_network_idle', '--timeoutMs=30000', '--idleMs=500'])
    expect(result.stderr).toBe('')
    expect(result.exitCode).toBe(0)
    // One call longer than DWDS's 10 s cap would have failed: only slices get past it.
    expect(Number(/after (\d+) ms/.exec(result.stdout)?.[1])).toBeGreaterThan(10_000)
  }, 60_000)

  it('says in one line that evaluate needs another start, exit 3', async () => {
    const result = await s.run(['tapir:evaluate', '--expression=1 + 2'])
    expect(result.exitCode).toBe(3)
    expect(result.stdout).toBe('')
    expect(result.stderr.split('\n')).toHaveLength(1)
    expect(result.stderr).toContain('DWDS in WebSocket mode (flutter run -d web-server), which has no expression evaluation')
    expect(result.stderr).toContain('tapir start --device=chrome')
  })

  it('says what the app answered when its error comes back as an answer, envelope and all, exit 3', async () => {
    const result = await s.run(['tapir:tap', '--ref=e999', '--json'])
    expect(result.exitCode).toBe(3)
    const error = JSON.parse(result.stdout) as {error: {message: string; envelope?: {type?: string}}}
    expect(error.error.message).toMatch(/e999/)
    expect(error.error.envelope?.type).toEqual(expect.any(String))
  })
})

describe('tap --until against DWDS in WebSocket mode', () => {
  const s = withSimSession({mode: 'dwds-websocket'})

  it('tap --until taps once and goes on waiting past 10 s for its text', async () => {
    const snap = await s.run(['tapir:snap'])
    expect(snap.stdout).toContain('heading "Sign in" [ref=e1]')
    const before = s.sim.requests.length
    const tapping = s.run(['tapir:tap', '--ref=e1', '--until=Monitors', '--untilTimeoutMs=30000'])
    await new Promise((resolve) => setTimeout(resolve, 12_000))
    await signIn(s)
    const result = await tapping
    expect(result.stderr).toBe('')
    expect(result.exitCode).toBe(0)
    expect(JSON.parse(result.stdout)).toMatchObject({ref: 'e1', untilMatched: true})
    // One tap with the first slice of the wait; the rest of the wait is wait_for, never a tap again.
    const taps = s.sim.requests.slice(before).filter((request) => request.method === 'ext.tapir.tap' && request.params.until === 'Monitors')
    expect(taps).toHaveLength(1)
  }, 60_000)
})

describe('tapir against DWDS as a Chrome proxy without an expression compiler', () => {
  const s = withSimSession({mode: 'dwds', expressionCompiler: false})

  it('says flutter was started with --no-web-enable-expression-evaluation or without a compiler, exit 3', async () => {
    const result = await s.run(['tapir:evaluate', '--expression=1 + 2'])
    expect(result.exitCode).toBe(3)
    expect(result.stderr).toContain('--no-web-enable-expression-evaluation, or without an expression compiler')
    expect(result.stderr.split('\n')).toHaveLength(1)
  })
})

describe('tapir against DWDS as a Chrome proxy (flutter run -d chrome)', () => {
  const s = withSimSession({mode: 'dwds'})

  it('evaluates', async () => {
    const result = await s.run(['tapir:evaluate', '--expression=1 + 2'])
    expect(result).toMatchObject({exitCode: 0, stdout: '3'})
  })
})

describe('tapir start --device=sim --mode=dwds-websocket', () => {
  it('rehearses WebSocket mode in the background sim: evaluate says it has none', async () => {
    const p = flutterProject()
    try {
      expect((await p.run(['start', '--device=sim', '--mode=dwds-websocket'])).exitCode).toBe(0)
      const result = await p.run(['tapir:evaluate', '--expression=1 + 2'])
      expect(result.exitCode).toBe(3)
      expect(result.stderr).toContain('DWDS in WebSocket mode')
      expect((await p.run(['tapir:snap'])).exitCode).toBe(0)
    } finally {
      await p.run(['stop'])
      p.dir.remove()
    }
  }, 60_000)
})
