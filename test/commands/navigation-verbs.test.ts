import {describe, expect, it} from 'vitest'
import {refOf, signIn, withSimSession} from '../helpers/sim.js'

describe('navigation, logs and waits against the sim', () => {
  const s = withSimSession({}, 'in-process')

  it('get_routes says where the app is', async () => {
    expect(JSON.parse((await s.run(['tapir:get_routes'])).stdout)).toMatchObject({uri: '/login'})
  })

  it('navigate to a guarded route is reported, not claimed', async () => {
    const result = await s.run(['tapir:navigate', '--route=/admin'])
    expect(result).toMatchObject({exitCode: 0, stdout: ''})
    expect(result.stderr).toMatch(/^⚠ Not navigated to \/admin: .+/)
    expect(JSON.parse((await s.run(['tapir:navigate', '--route=/admin', '--json'])).stdout)).toMatchObject({
      navigated: false,
      exactPath: false,
      reason: expect.any(String),
    })
  })

  it('navigate_back at the root does nothing, and says so', async () => {
    expect(await s.run(['tapir:navigate_back'])).toMatchObject({
      exitCode: 0,
      stdout: '✓ Nothing to go back to (every Navigator is at its root)',
    })
  })

  it('wait matches a Text, and exits 1 saying the condition is unproven when it never appears', async () => {
    expect((await s.run(['tapir:wait', '--text=Sign in'])).stdout).toMatch(/^✓ Condition matched after \d+ ms$/)
    const missed = await s.run(['tapir:wait', '--text=Welcome back', '--timeoutMs=300'])
    expect(missed).toMatchObject({
      exitCode: 1,
      stdout: '',
      stderr:
        '✗ Condition did not match within the timeout. Nothing on screen satisfied it, so treat any assertion that depended on this wait as unproven.',
    })
    const json = await s.run(['tapir:wait', '--text=Welcome back', '--timeoutMs=100', '--json'])
    expect(json.exitCode).toBe(1)
    expect(JSON.parse(json.stdout)).toEqual({matched: false, reason: 'timeout'})
  })

  it("a wait longer than --timeout is not cut short by the per-call timeout: it is the wait's own verdict", async () => {
    const result = await s.run(['tapir:wait', '--text=Welcome back', '--timeoutMs=1200', '--timeout=300'])
    expect(result.exitCode).toBe(1)
    expect(result.stderr).toContain('Condition did not match within the timeout')
  })

  it('wait --textGone matches once the text is gone', async () => {
    expect((await s.run(['tapir:wait', '--textGone=Nowhere to be seen'])).exitCode).toBe(0)
  })

  it('wait_for_network_idle fails while a request is in flight, then succeeds', async () => {
    await signIn(s) // starts a request of about 800 ms
    const busy = await s.run(['tapir:wait_for_network_idle', '--timeoutMs=200', '--idleMs=100', '--pollIntervalMs=100'])
    expect(busy.exitCode).toBe(1)
    expect(busy.stderr).toMatch(
      /^✗ Network did not go idle within the timeout\. Requests were still in flight, so treat anything that depended on this wait as unproven\. \(.*in-flight.*\)$/,
    )
    const idle = await s.run(['tapir:wait_for_network_idle', '--timeoutMs=5000'])
    expect(idle.exitCode).toBe(0)
    expect(idle.stdout).toMatch(/^✓ Network idle \(after \d+ ms\)$/)
  })

  it('wait_for_network_idle with a timeout shorter than the idle window says so, not that requests were in flight', async () => {
    const result = await s.run(['tapir:wait_for_network_idle', '--timeoutMs=300'])
    expect(result).toMatchObject({
      exitCode: 1,
      stdout: '',
      stderr:
        '✗ Network idle not proven: the timeout (--timeoutMs=300) is shorter than the idle window (--idleMs=500), so the network could never be seen idle for that long. Raise --timeoutMs above --idleMs, or lower --idleMs.',
    })
  })

  it('navigate_back leaves a pushed detail page', async () => {
    const monitors = (await s.run(['tapir:snap'])).stdout
    await s.run(['tapir:tap', `--ref=${refOf(monitors, /button "DB"/)}`])
    expect(JSON.parse((await s.run(['tapir:get_routes'])).stdout).uri).toBe('/monitors/3')
    expect((await s.run(['tapir:navigate_back'])).stdout).toBe('✓ Navigated back')
    expect(JSON.parse((await s.run(['tapir:get_routes'])).stdout).uri).toBe('/monitors')
  })

  it('dismiss_modals pops an open dialog, and is a no-op after', async () => {
    const monitors = (await s.run(['tapir:snap'])).stdout
    await s.run(['tapir:tap', `--ref=${refOf(monitors, /button "Web"/)}`])
    const detail = (await s.run(['tapir:snap'])).stdout
    await s.run(['tapir:tap', `--ref=${refOf(detail, /button "Delete"/)}`])
    expect((await s.run(['tapir:snap'])).stdout).toContain('Delete monitor?')
    expect(await s.run(['tapir:dismiss_modals'])).toMatchObject({exitCode: 0, stdout: '✓ Dismissed 1 modal(s)'})
    expect(await s.run(['tapir:dismiss_modals'])).toMatchObject({exitCode: 0, stdout: '✓ Dismissed 0 modal(s)'})
    await s.run(['tapir:navigate_back'])
  })

  it('console returns the log entries as JSON', async () => {
    const result = await s.run(['tapir:console', '--limit=5'])
    expect(result.exitCode).toBe(0)
    const body = JSON.parse(result.stdout)
    expect(body.count).toBe(body.logs.length)
    expect(body.logs.length).toBeLessThanOrEqual(5)
  })

  it('console drops repeats of the same level, message and logger, keeping the debugPrint copy', async () => {
    await s.run(['tapir:navigate', '--route=/settings'])
    for (let i = 0; i < 2; i++) expect((await s.run(['tapir:press_key', '--key=S', '--modifiers=control'])).exitCode).toBe(0)
    const {logs, count} = JSON.parse((await s.run(['tapir:console', '--limit=50'])).stdout) as {
      logs: Array<{level: string; message: string; logger: string}>
      count: number
    }
    expect(count).toBe(logs.length)
    expect(logs.filter((entry) => entry.message === 'Settings saved')).toEqual([
      {level: 'INFO', message: 'Settings saved', time: expect.any(String), logger: 'debugPrint'},
    ])
    const keys = logs.map((entry) => JSON.stringify([entry.level, entry.message, entry.logger]))
    expect(new Set(keys).size).toBe(keys.length)
    // The entries crumbs adds (developer.log) follow the debugPrint ones.
    const firstCrumbs = logs.findIndex((entry) => entry.logger !== 'debugPrint')
    expect(logs.slice(firstCrumbs).every((entry) => entry.logger !== 'debugPrint')).toBe(true)
    await s.run(['tapir:navigate', '--route=/monitors'])
  })

  it('exceptions reads the buffer, honours --since, and --clear empties it', async () => {
    await s.run(['tapir:navigate', '--route=/settings']) // records the overflow error
    const all = JSON.parse((await s.run(['tapir:exceptions'])).stdout)
    expect(all.count).toBeGreaterThan(0)
    expect(all.exceptions[0]).toMatchObject({type: 'overflow', fatal: false})
    const future = JSON.parse((await s.run(['tapir:exceptions', '--since=2999-01-01T00:00:00.000Z'])).stdout)
    expect(future.count).toBe(0)
    await s.run(['tapir:exceptions', '--clear'])
    expect(JSON.parse((await s.run(['tapir:exceptions'])).stdout).count).toBe(0)
  })
})
