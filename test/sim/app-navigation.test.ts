import {describe, expect, it} from 'vitest'
import {createMonitorsApp} from '../../src/sim/app/index.js'
import {ExtensionError} from '../../src/sim/app-contract.js'
import {quiet, refOf, snap} from './app-helpers.js'

describe('navigate', () => {
  it('lands on a known route and verifies it through the router', async () => {
    const app = createMonitorsApp()
    const result = await app.call('navigate', {route: '/monitors/3'})
    expect(result).toMatchObject({navigated: true, route: '/monitors/3', exactPath: true})
    expect(result.snapshot).toContain('- heading "DB"')
    expect(await app.call('get_routes', {})).toEqual({location: '', title: '', uri: '/monitors/3'})
  })

  it('ignores the query when matching the path', async () => {
    const app = createMonitorsApp()
    expect(await app.call('navigate', {route: '/settings?tab=2', ...quiet})).toEqual({
      navigated: true,
      route: '/settings?tab=2',
      exactPath: true,
    })
  })

  it('reports navigated false with a reason when a guard redirects', async () => {
    const app = createMonitorsApp()
    await app.call('navigate', {route: '/settings', ...quiet})
    expect(await app.call('navigate', {route: '/admin', ...quiet})).toEqual({
      navigated: false,
      route: '/admin',
      exactPath: false,
      reason: 'router redirected /admin to /login',
    })
    const unchanged = await app.call('navigate', {route: '/admin', ...quiet})
    expect(unchanged).toMatchObject({navigated: false, reason: expect.stringContaining('observed URI did not change')})
    expect((await app.call('navigate', {route: '/nowhere', ...quiet})).navigated).toBe(false)
  })

  it('needs a route that starts with a slash', async () => {
    const app = createMonitorsApp()
    await expect(app.call('navigate', {})).rejects.toBeInstanceOf(ExtensionError)
    await expect(app.call('navigate', {route: 'monitors'})).rejects.toBeInstanceOf(ExtensionError)
  })

  it('dismisses an open dialog first', async () => {
    const app = createMonitorsApp()
    await app.call('navigate', {route: '/monitors/1', ...quiet})
    await app.call('tap', {ref: refOf(await snap(app), 'button "Delete"'), ...quiet})
    await app.call('navigate', {route: '/monitors', ...quiet})
    expect(await snap(app)).toContain('- text "20 monitors"')
  })
})

describe('navigate_back and dismiss_modals', () => {
  it('pops the dialog first, then the detail page, then reports nothing to pop', async () => {
    const app = createMonitorsApp()
    await app.call('navigate', {route: '/monitors/2', ...quiet})
    await app.call('tap', {ref: refOf(await snap(app), 'button "Delete"'), ...quiet})
    expect(await app.call('navigate_back', quiet)).toEqual({navigatedBack: true, popped: true})
    expect(await snap(app)).toContain('- heading "Web"')
    expect(await app.call('navigate_back', quiet)).toEqual({navigatedBack: true, popped: true})
    expect((await app.call('get_routes', {})).uri).toBe('/monitors')
    expect(await app.call('navigate_back', quiet)).toEqual({navigatedBack: false, popped: false})
  })

  it('dismiss_modals pops every popup and answers 0 when there is none', async () => {
    const app = createMonitorsApp()
    await app.call('navigate', {route: '/monitors/2', ...quiet})
    await app.call('tap', {ref: refOf(await snap(app), 'button "Delete"'), ...quiet})
    expect(await app.call('dismiss_modals', {})).toEqual({popped: 1})
    expect(await app.call('dismiss_modals', {})).toEqual({popped: 0})
  })
})
