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
  it('adds the warnings block to frame-forcing verbs while hidden, and drops it on resume', async () => {
    const app = createMonitorsApp()
    app.setLifecycle('hidden')
    const hidden = await app.call('snap', {})
    expect(hidden.warnings).toMatchObject({framesEnabled: false, lifecycleState: 'hidden', platform: 'linux'})
    expect((hidden.warnings as {hint: string}).hint).toContain('window')
    expect(await app.call('boot_id', {})).not.toHaveProperty('warnings')
    expect((await app.call('observe', {})).warnings).toBeDefined()
    app.setLifecycle('resumed')
    expect(await app.call('snap', {})).not.toHaveProperty('warnings')
  })

  it('names paused and detached states too', async () => {
    const app = createMonitorsApp()
    app.setLifecycle('paused')
    expect((await app.call('find', {text: 'Email'})).warnings).toMatchObject({lifecycleState: 'paused'})
    app.setLifecycle('detached')
    expect((await app.call('find', {text: 'Email'})).warnings).toMatchObject({lifecycleState: 'detached'})
  })

  it('draws no frame while hidden: a tap lands in the state but the tree stays stale until resume', async () => {
    const app = createMonitorsApp()
    const before = await snap(app)
    app.setLifecycle('hidden')
    const tapped = await app.call('tap', {ref: 'e4', includeSnapshot: 'false'})
    expect(tapped.effect).toEqual({kind: 'treeChanged', changed: false})
    expect(tapped.warnings).toBeDefined()
    expect(await snap(app)).toBe(before)
    app.setLifecycle('resumed')
    expect(await snap(app)).toContain('Enter your email and password')
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
    expect(app.evaluate('currentRoute')).toMatchObject({result: {valueAsString: '/monitors'}})

    app.restart()

    expect((await app.call('boot_id', {})).bootId).not.toBe(bootId)
    expect(app.evaluate('Auth.user?.email')).toMatchObject({result: {kind: 'Null'}})
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
