import {readFileSync} from 'node:fs'
import {describe, expect, it} from 'vitest'
import {createMonitorsApp} from '../../src/sim/app/index.js'
import {failure, snap} from './app-helpers.js'

describe('registration', () => {
  it('registers every ext.tapir.* method the tool reference dispatches to, boot_id last', () => {
    const {extensions} = createMonitorsApp()
    const reference = JSON.parse(readFileSync(new URL('../../spec/tools.json', import.meta.url), 'utf8')) as {
      tools: Array<{dispatch: string | null}>
    }
    const dispatched = reference.tools
      .map((tool) => tool.dispatch)
      .filter((dispatch) => dispatch?.startsWith('ext.tapir.'))
      .map((dispatch) => dispatch!.slice('ext.tapir.'.length))
    expect(dispatched.length).toBeGreaterThan(30)
    for (const name of dispatched) expect(extensions, name).toContain(name)
    expect(extensions.at(-1)).toBe('boot_id')
    expect(new Set(extensions).size).toBe(extensions.length)
  })

  it('ignores the isolateId param and parses booleans the Dart way', async () => {
    const app = createMonitorsApp()
    await snap(app)
    const off = await app.call('tap', {isolateId: 'isolates/1', ref: 'e5', includeSnapshot: '0'})
    expect(off).not.toHaveProperty('snapshot')
    const on = await app.call('tap', {ref: 'e5', includeSnapshot: 'yes'})
    expect(on).toHaveProperty('snapshot')
    const empty = await app.call('tap', {ref: 'e5', includeSnapshot: ''})
    expect(empty).toHaveProperty('snapshot')
  })
})

describe('lifecycle', () => {
  it('wakes a hidden or paused window at the entry of frame-forcing verbs: framesForced, no warnings', async () => {
    const app = createMonitorsApp()
    const before = await snap(app)
    for (const state of ['hidden', 'paused'] as const) {
      app.setLifecycle(state)
      const woken = await app.call('snap', {})
      expect(woken).toMatchObject({snapshot: before, framesForced: true})
      expect(woken).not.toHaveProperty('warnings')
      expect(await app.call('boot_id', {})).not.toHaveProperty('framesForced')
      expect(await app.call('console', {})).not.toHaveProperty('framesForced')
    }
    app.setLifecycle('resumed')
    expect(await app.call('snap', {})).not.toHaveProperty('framesForced')
  })

  it('a tap on a hidden window lands and is seen: the wake draws its frames', async () => {
    const app = createMonitorsApp()
    await snap(app)
    app.setLifecycle('hidden')
    const tapped = await app.call('tap', {ref: 'e4', includeSnapshot: 'false'})
    expect(tapped).toMatchObject({effect: {kind: 'treeChanged', changed: true}, framesForced: true})
    expect(await snap(app)).toContain('Enter your email and password')
  })

  it('adds the warnings block instead where no wake is possible: a detached app, the opt-out, a browser tab', async () => {
    const detached = createMonitorsApp()
    detached.setLifecycle('detached')
    const answer = await detached.call('find', {text: 'Email'})
    expect(answer.warnings).toMatchObject({framesEnabled: false, lifecycleState: 'detached', platform: 'linux'})
    expect(answer).not.toHaveProperty('framesForced')

    const optedOut = createMonitorsApp({forceFrames: false})
    const before = await snap(optedOut)
    optedOut.setLifecycle('hidden')
    const tapped = await optedOut.call('tap', {ref: 'e4', includeSnapshot: 'false'})
    expect(tapped.effect).toEqual({kind: 'treeChanged', changed: false})
    expect(tapped.warnings).toMatchObject({framesEnabled: false, lifecycleState: 'hidden', platform: 'linux'})
    expect((tapped.warnings as {hint: string}).hint).toContain('window')
    expect(await snap(optedOut)).toBe(before)
    optedOut.setLifecycle('resumed')
    expect(await snap(optedOut)).toContain('Enter your email and password')

    const tab = createMonitorsApp({web: true})
    tab.setLifecycle('hidden')
    const hidden = await tab.call('snap', {})
    expect(hidden.warnings).toMatchObject({framesEnabled: false, lifecycleState: 'hidden', platform: 'web'})
    expect((hidden.warnings as {hint: string}).hint).toContain('Bring the page to front (CDP Page.bringToFront) and retry')
  })
})

describe('restart', () => {
  it('boots fresh: new boot id, login screen, refs, handles and diff baseline cleared', async () => {
    const app = createMonitorsApp()
    const {bootId} = await app.call('boot_id', {})
    const login = await snap(app)
    await app.call('fill', {ref: 'e2', text: 'ann@example.com', includeSnapshot: 'false'})
    await app.call('fill', {ref: 'e3', text: 'hunter2', includeSnapshot: 'false'})
    await app.call('tap', {ref: 'e4', includeSnapshot: 'false'})
    const handle = (await app.call('find', {text: 'API'})).ref as string
    expect(app.evaluate('currentRoute')).toEqual({kind: 'value', value: {type: 'String', value: '/monitors'}})

    app.restart()

    expect((await app.call('boot_id', {})).bootId).not.toBe(bootId)
    expect(app.evaluate('Auth.user?.email')).toEqual({kind: 'value', value: {type: 'Null'}})
    expect((await failure(app.call('tap', {ref: 'e4'}), 'any')).envelope.type).toBe('not_found')
    expect((await failure(app.call('tap', {ref: handle}), 'any')).envelope.type).toBe('not_found')
    await app.call('observe', {})
    const tapped = await app.call('tap', {ref: 'q4', snapshot: 'diff'})
    expect(tapped.snapshotMode).toBeUndefined()
    expect(tapped.snapshot).toContain('- text "Enter your email and password"')
    expect(await app.call('snap', {})).toMatchObject({
      snapshot: login.replace('- button', '- text "Enter your email and password"\n- button'),
    })
  })
})
