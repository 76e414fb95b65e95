import {describe, expect, it} from 'vitest'
import {createMonitorsApp} from '../../src/sim/app/index.js'
import {ExtensionError} from '../../src/sim/app-contract.js'
import {quiet, signIn} from './app-helpers.js'

describe('wait_for', () => {
  it('matches a Text that is there, and one that is gone', async () => {
    const app = createMonitorsApp()
    expect(await app.call('wait_for', {text: 'Sign in', timeoutMs: '100'})).toMatchObject({matched: true})
    expect(await app.call('wait_for', {textGone: 'Monitors', timeoutMs: '100'})).toMatchObject({matched: true})
    expect(await app.call('wait_for', {expression: 'Forgot password?', timeoutMs: '100'})).toMatchObject({matched: true})
  })

  it('answers a timeout as a normal result', async () => {
    const app = createMonitorsApp()
    expect(await app.call('wait_for', {text: 'Monitors', timeoutMs: '250'})).toEqual({matched: false, reason: 'timeout'})
  })

  it('refuses a call with no condition, with a plain-string detail', async () => {
    const app = createMonitorsApp()
    const error = await app.call('wait_for', {}).catch((e: unknown) => e)
    expect(error).toBeInstanceOf(ExtensionError)
    expect((error as ExtensionError).details).toBe('ext.tapir.wait_for: one of "text", "textGone" or "expression" is required')
  })
})

describe('wait_for_network_idle', () => {
  it('waits out the request sign-in starts', async () => {
    const app = createMonitorsApp()
    await signIn(app)
    const started = Date.now()
    const result = await app.call('wait_for_network_idle', {idleMs: '100', pollIntervalMs: '100', timeoutMs: '3000'})
    expect(result.matched).toBe(true)
    expect(Date.now() - started).toBeGreaterThanOrEqual(700)
  })

  it('fails with a timeout envelope naming the peak in-flight count', async () => {
    const app = createMonitorsApp()
    await signIn(app)
    const error = await app.call('wait_for_network_idle', {timeoutMs: '200'}).catch((e: unknown) => e)
    expect(JSON.parse((error as ExtensionError).details)).toEqual({
      message: 'max in-flight count observed: 1',
      envelope: {type: 'timeout', suggestions: []},
    })
  })
})

describe('console and exceptions', () => {
  it('console lists the debugPrint entries newest first, then crumbs, dropping the repeats crumbs keeps of debugPrint', async () => {
    const app = createMonitorsApp()
    await app.call('snap', {})
    await app.call('tap', {ref: 'e4', ...quiet})
    await signIn(app)
    const {logs, count} = await app.call('console', {limit: '5'})
    expect(count).toBe(4)
    expect(logs).toMatchObject([
      {level: 'INFO', message: 'Signed in as ann@example.com', logger: 'debugPrint'},
      {level: 'INFO', message: 'Sign-in refused: email or password missing', logger: 'debugPrint'},
      {level: 'INFO', message: 'GET /api/monitors', logger: 'monitors.http'},
      {level: 'WARNING', message: 'sign-in refused: incomplete credentials', logger: 'monitors.auth'},
    ])
    expect((await app.call('console', {limit: '2'})).logs).toMatchObject([{logger: 'debugPrint'}, {logger: 'debugPrint'}])
    expect((await app.call('console', {minLevel: 'WARNING'})).logs).toMatchObject([{logger: 'monitors.auth'}])
    expect((await app.call('console', {minLevel: 'ERROR'})).count).toBe(0)
  })

  it('exceptions holds the overflow captured when settings first laid out; clear empties it', async () => {
    const app = createMonitorsApp()
    await signIn(app)
    expect(await app.call('exceptions', {})).toEqual({exceptions: [], count: 0})
    await app.call('navigate', {route: '/settings', ...quiet})
    await app.call('navigate', {route: '/monitors', ...quiet})
    await app.call('navigate', {route: '/settings', ...quiet})
    expect((await app.call('exceptions', {since: '2000-01-01T00:00:00.000Z'})).count).toBe(1)
    expect((await app.call('exceptions', {since: '2999-01-01T00:00:00.000Z'})).count).toBe(0)
    expect((await app.call('exceptions', {since: 'yesterday'})).count).toBe(1)
    const {exceptions, count} = await app.call('exceptions', {clear: 'true'})
    expect(count).toBe(1)
    expect(exceptions).toMatchObject([{type: 'overflow', fatal: false, library: 'rendering library'}])
    expect((exceptions as {message: string}[])[0]!.message).toMatch(/^A RenderFlex overflowed by 116 pixels on the right\./)
    expect((await app.call('snap', {})).renderErrors).toBeUndefined()
  })

  it('neither carries the warnings block while hidden', async () => {
    const app = createMonitorsApp()
    app.setLifecycle('hidden')
    expect(await app.call('console', {})).not.toHaveProperty('warnings')
    expect(await app.call('exceptions', {})).not.toHaveProperty('warnings')
  })
})
