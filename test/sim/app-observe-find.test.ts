import {describe, expect, it} from 'vitest'
import {createMonitorsApp} from '../../src/sim/app/index.js'
import type {SimApp} from '../../src/sim/app-contract.js'
import {failure, refOf, signedInApp, snap} from './app-helpers.js'

interface Candidate {
  ref: string
  role: string
  label: string
  value: string | null
  bounds: {x: number; y: number; w: number; h: number}
  isEnabled: boolean
  isVisible: boolean
  inViewport: boolean
  occluded: boolean
  tapOwner?: {x: number; y: number; w: number; h: number}
  [enricher: string]: unknown
}

async function observe(app: SimApp, params: Record<string, string> = {}): Promise<Candidate[]> {
  const result = await app.call('observe', params)
  expect(result.count).toBe((result.candidates as Candidate[]).length)
  return result.candidates as Candidate[]
}

describe('observe', () => {
  it('lists the login form with roles, bounds and the default enricher subset', async () => {
    const candidates = await observe(createMonitorsApp())
    expect(candidates.map((c) => [c.role, c.label])).toEqual([
      ['heading', 'Sign in'],
      ['textbox', 'Email'],
      ['textbox', 'Password'],
      ['button', 'Sign in'],
      ['link', 'Forgot password?'],
    ])
    expect(candidates[1]).toEqual({
      ref: 'q2',
      role: 'textbox',
      label: 'Email',
      value: null,
      bounds: {x: 24, y: 160, w: 352, h: 56},
      isEnabled: true,
      isVisible: true,
      inViewport: true,
      occluded: false,
      magicFormField: 'email',
      magicRoute: '/login',
    })
  })

  it('projects no enrichers with "false" and every field with "full"', async () => {
    const app = createMonitorsApp()
    const [plain] = await observe(app, {includeEnrichers: 'false'})
    expect(plain).not.toHaveProperty('magicRoute')
    const [full] = await observe(app, {includeEnrichers: 'full'})
    expect(full).toMatchObject({magicRoute: '/login', magicAuthUser: 'guest'})
  })

  it('filters by role and stops at limit', async () => {
    const app = await signedInApp()
    const headings = await observe(app, {roles: 'heading'})
    expect(headings.map((c) => c.label)).toEqual(['Monitors'])
    expect(await observe(app, {roles: 'button', limit: '3'})).toHaveLength(3)
  })

  it('reports visibility, viewport, occlusion, disabled state and the merged tile once with tapOwner', async () => {
    const app = await signedInApp()
    const candidates = await observe(app)
    const byLabel = (label: string): Candidate[] => candidates.filter((c) => c.label === label)
    expect(byLabel('Export')[0]).toMatchObject({isEnabled: false, isVisible: true})
    expect(byLabel('Refresh')[0]).toMatchObject({isVisible: false, inViewport: true, occluded: false, bounds: {x: 352, y: 36, w: 0, h: 0}})
    expect(byLabel('Alerts enabled')).toHaveLength(1)
    expect(byLabel('Alerts enabled')[0]!.tapOwner).toEqual({x: 316, y: 68, w: 52, h: 40})
    const pauses = byLabel('Pause')
    expect(pauses).toHaveLength(20)
    expect(pauses[8]).toMatchObject({occluded: true, isVisible: true})
    expect(pauses[9]).toMatchObject({occluded: false, isVisible: false, inViewport: false})
    expect(candidates.filter((c) => c.tapOwner !== undefined)).toHaveLength(1)
  })

  it('mints one handle per same-label row, each acting on its own row', async () => {
    const app = await signedInApp()
    const pauses = (await observe(app, {roles: 'button'})).filter((c) => c.label === 'Pause')
    expect(new Set(pauses.map((c) => c.ref)).size).toBe(20)
    await app.call('tap', {ref: pauses[5]!.ref, includeSnapshot: 'false'})
    await app.call('tap', {ref: pauses[2]!.ref, includeSnapshot: 'false'})
    const yaml = await snap(app)
    const rows = yaml.split('\n').filter((l) => /button "(Pause|Resume)"/.test(l))
    expect(rows.map((l) => /"(Pause|Resume)"/.exec(l)![1]).slice(0, 7)).toEqual([
      'Pause',
      'Pause',
      'Resume',
      'Pause',
      'Pause',
      'Resume',
      'Pause',
    ])
  })

  it('re-resolves a handle by its position, so a removed same-label row above shifts it, and reports stale past the end', async () => {
    const app = await signedInApp()
    const pauses = (await observe(app, {roles: 'button'})).filter((c) => c.label === 'Pause')
    await app.call('tap', {ref: pauses[0]!.ref, includeSnapshot: 'false'})
    // Row 1 now reads Resume: index 0 among the remaining 19 Pause buttons is row 2's.
    await app.call('tap', {ref: pauses[0]!.ref, includeSnapshot: 'false'})
    const yaml = await snap(app)
    const labels = yaml
      .split('\n')
      .filter((l) => /button "(Pause|Resume)"/.test(l))
      .map((l) => /"(Pause|Resume)"/.exec(l)![1])
    expect(labels.slice(0, 3)).toEqual(['Resume', 'Resume', 'Pause'])
    const last = await failure(app.call('tap', {ref: pauses[19]!.ref, includeSnapshot: 'false'}), 'any')
    expect(last.envelope.type).toBe('stale')
    expect(last.message).toBe(`Query handle ref=${pauses[19]!.ref} is stale: no live match for stored predicates`)
  })
})

describe('find', () => {
  it('answers a q handle with matchCount, or ref null when nothing matches', async () => {
    const app = createMonitorsApp()
    expect(await app.call('find', {text: 'Forgot password?'})).toEqual({ref: 'q1', matched: true, matchCount: 1})
    expect(await app.call('find', {text: 'Nope'})).toEqual({ref: null, matched: false})
  })

  it('refuses a call with none of the four predicates, within alone included', async () => {
    const app = createMonitorsApp()
    const error = await failure(app.call('find', {within: 'e1'}), 'any')
    expect(error.envelope).toEqual({type: 'missing_param', suggestions: []})
  })

  it('prefers the first actionable node (the button over the heading) among same-label matches and explains the ambiguity', async () => {
    const app = createMonitorsApp()
    const result = await app.call('find', {text: 'Sign in'})
    expect(result).toMatchObject({matched: true, matchCount: 2})
    expect(result.diagnostic).toBe("label 'Sign in' matched 2 nodes; refine with --key, --text, or --contains, or scope with --within")
    await app.call('tap', {ref: result.ref as string, includeSnapshot: 'false'})
    expect(await snap(app)).toContain('- text "Enter your email and password"')
    const app2 = await signedInApp()
    const pause = await app2.call('find', {semanticsLabel: 'Pause'})
    expect(pause.matchCount).toBe(20)
    await app2.call('tap', {ref: pause.ref as string, includeSnapshot: 'false'})
    expect(await snap(app2)).toMatch(/- button "API" \[ref=e\d+\]\n- button "Resume"/)
  })

  it('applies one predicate in the order key, semanticsLabel, text, contains', async () => {
    const app = createMonitorsApp()
    const yaml = await snap(app)
    const byKey = await app.call('find', {key: 'password', text: 'Email', semanticsLabel: 'Email'})
    expect(byKey.matched).toBe(false)
    const keyed = await app.call('find', {key: 'signIn', semanticsLabel: 'Forgot password?'})
    await app.call('tap', {ref: keyed.ref as string, includeSnapshot: 'false'})
    expect(await snap(app)).toContain('Enter your email and password')
    const labelled = await app.call('find', {semanticsLabel: 'Forgot password?', text: 'Sign in'})
    await app.call('tap', {ref: labelled.ref as string, includeSnapshot: 'false'})
    expect(await snap(app)).toContain('- text "Reset link sent"')
    const partial = await app.call('find', {contains: 'Forgot'})
    expect(partial.matchCount).toBe(1)
    expect(yaml).toContain('Forgot password?')
  })

  it('matches a key by its value or its ValueKey toString, and text with key must sit under the keyed widget', async () => {
    const app = createMonitorsApp()
    expect((await app.call('find', {key: "[<'email'>]"})).matched).toBe(true)
    expect((await app.call('find', {key: 'signIn', text: 'Sign in'})).matched).toBe(true)
    expect((await app.call('find', {key: 'signIn', text: 'Email'})).matched).toBe(false)
  })

  it('falls back to Text.data when no semantics label matches', async () => {
    const app = await signedInApp()
    const yaml = await snap(app)
    await app.call('tap', {ref: refOf(yaml, 'button "Settings"'), includeSnapshot: 'false'})
    const value = await app.call('find', {text: 'eu'})
    expect(value).toMatchObject({matched: true, matchCount: 1})
    await app.call('tap', {ref: value.ref as string, includeSnapshot: 'false'})
    expect(await snap(app)).toMatch(/- button "asia" \[ref=e\d+\]/)
  })

  it('scopes a query with within, and reports matched false once the scope stops resolving', async () => {
    const app = await signedInApp()
    const yaml = await snap(app)
    const tile = refOf(yaml, 'button "Alerts enabled"')
    expect(await app.call('find', {text: 'API', within: tile})).toEqual({ref: null, matched: false})
    const scoped = await app.call('find', {contains: 'Alerts', within: tile})
    expect(scoped).toMatchObject({matched: true, matchCount: 1})
    const unknown = await app.call('find', {text: 'API', within: 'e999'})
    expect(unknown).toMatchObject({ref: null, matched: false})
    expect(unknown.diagnostic).toContain('e999')
  })
})
