import {describe, expect, it} from 'vitest'
import {createMonitorsApp} from '../../src/sim/app/index.js'
import {failure, refOf, signedIn, snap} from './app-helpers.js'

describe('snap', () => {
  it('renders the login screen in the original YAML format, text fields collapsed to one typeable ref', async () => {
    const app = createMonitorsApp()
    const result = await app.call('snap', {})
    expect(result.snapshot).toBe(
      [
        '- heading "Sign in" [ref=e1]',
        '- textbox "Email" [ref=e2]',
        '  typeable: true',
        '- textbox "Password" [ref=e3]',
        '  typeable: true',
        '- button "Sign in" [ref=e4]',
        '- link "Forgot password?" [ref=e5]',
        '',
      ].join('\n'),
    )
    expect(result.groupId).toMatch(/^snapshot-\d+$/)
    expect(result.renderErrors).toBeUndefined()
  })

  it('keeps each node on its eN across snapshots and mints new refs only for new nodes', async () => {
    const app = createMonitorsApp()
    const first = await snap(app)
    await app.call('tap', {ref: refOf(first, 'button "Sign in"'), includeSnapshot: 'false'})
    const second = await snap(app)
    expect(second).toContain('- text "Enter your email and password"')
    expect(refOf(second, 'button "Sign in"')).toBe('e4')
    expect(refOf(second, 'textbox "Email"')).toBe('e2')
  })

  it('shows values, escapes quotes and backslashes, and bullets an obscured field', async () => {
    const app = createMonitorsApp()
    const login = await snap(app)
    await app.call('fill', {ref: refOf(login, 'textbox "Email"'), text: 'say "hi" \\ bye', includeSnapshot: 'false'})
    await app.call('fill', {ref: refOf(login, 'textbox "Password"'), text: 'abcd', includeSnapshot: 'false'})
    const yaml = await snap(app)
    expect(yaml).toContain('- textbox "Email": "say \\"hi\\" \\\\ bye" [ref=e2]')
    expect(yaml).toContain('- textbox "Password": "••••" [ref=e3]')
  })

  it('marks rows below the list viewport [offscreen] and the Pause button under the FAB [occluded]', async () => {
    const {yaml} = await signedIn()
    const lines = yaml.split('\n')
    const pauses = lines.filter((l) => l.includes('button "Pause"'))
    expect(pauses).toHaveLength(20)
    expect(pauses.slice(0, 8).every((l) => !l.includes('[offscreen]') && !l.includes('[occluded]'))).toBe(true)
    expect(pauses[8]).toMatch(/\[ref=e\d+\] \[occluded\]$/)
    expect(pauses.slice(9).every((l) => l.endsWith(' [offscreen]'))).toBe(true)
    expect(lines.find((l) => l.includes('button "Mail"'))).toMatch(/\[ref=e\d+\]$/)
    expect(lines.find((l) => l.includes('button "CDN"'))).toMatch(/\[offscreen\]$/)
  })

  it('gives a zero-size button and a disabled one a ref with no marker', async () => {
    const {yaml} = await signedIn()
    expect(yaml).toMatch(/^- button "Refresh" \[ref=e\d+\]$/m)
    expect(yaml).toMatch(/^- button "Export" \[ref=e\d+\]$/m)
  })

  it('lists a MergeSemantics tile once, with tapOwner naming its switch', async () => {
    const {yaml} = await signedIn()
    expect(yaml).toMatch(/^- button "Alerts enabled" \[ref=e\d+\]\n {2}tapOwner: \{"x":316\.0,"y":68\.0,"w":52\.0,"h":40\.0\}$/m)
    expect(yaml.match(/Alerts enabled/g)).toHaveLength(1)
  })

  it('reports the settings overflow: the offscreen button gets overflow: true and snap carries renderErrors', async () => {
    const {app, yaml} = await signedIn()
    expect((await app.call('snap', {})).renderErrors).toBeUndefined()
    await app.call('tap', {ref: refOf(yaml, 'button "Settings"'), includeSnapshot: 'false'})
    const result = await app.call('snap', {})
    expect(result.snapshot).toMatch(/^- button "Sync now" \[ref=e\d+\] \[offscreen\]\n {2}overflow: true$/m)
    expect(result.snapshot).toMatch(/^- checkbox "Accept beta terms" \[ref=e\d+\] \[offscreen\]$/m)
    expect(result.renderErrors).toEqual({
      count: 1,
      recent: [{type: 'overflow', message: 'A RenderFlex overflowed by 116 pixels on the right.'}],
      hint: 'Run tapir:exceptions for full messages + stack traces.',
    })
  })

  it('adds enricher lines under each ref with includeEnrichers', async () => {
    const app = createMonitorsApp()
    const yaml = await snap(app, {includeEnrichers: 'true'})
    expect(yaml).toContain(
      '- textbox "Email" [ref=e2]\n  typeable: true\n  magicFormField: email\n  magicRoute: /login\n  magicAuthUser: guest\n',
    )
    expect(yaml).toContain('- button "Sign in" [ref=e4]\n  magicRoute: /login\n')
  })

  describe('filters', () => {
    it('interactiveOnly drops the text lines', async () => {
      const {app} = await signedIn()
      const yaml = await snap(app, {interactiveOnly: 'true'})
      expect(yaml).not.toContain('- text ')
      expect(yaml).toContain('- heading "Monitors"')
    })

    it('grep keeps matching lines; an invalid regex is matched literally and flagged', async () => {
      const {app} = await signedIn()
      const regex = await app.call('snap', {grep: '^(API|Web)$'})
      expect(regex.snapshot).toMatch(/^- button "API" \[ref=e\d+\]\n- button "Web" \[ref=e\d+\]\n$/)
      expect(regex.grepLiteral).toBeUndefined()
      const literal = await app.call('snap', {grep: 'Alerts ('})
      expect(literal.grepLiteral).toBe(true)
      expect(literal.snapshot).toBe('')
    })

    it('grep keeps the ancestors of a match', async () => {
      const app = createMonitorsApp()
      const login = await snap(app)
      await app.call('tap', {ref: refOf(login, 'button "Sign in"'), includeSnapshot: 'false'})
      expect(await snap(app, {grep: 'your email'})).toBe('- text "Enter your email and password"\n')
    })

    it('within scopes the walk to one subtree and depth limits the emitted depth', async () => {
      const {app, yaml} = await signedIn()
      const tile = refOf(yaml, 'button "Alerts enabled"')
      expect(await snap(app, {within: tile})).toBe(
        `- button "Alerts enabled" [ref=${tile}]\n  tapOwner: {"x":316.0,"y":68.0,"w":52.0,"h":40.0}\n`,
      )
      const shallow = await snap(app, {depth: '0'})
      expect(shallow).toContain('- heading "Monitors"')
    })

    it('within refuses an unknown ref, a q handle and a ref that left the tree', async () => {
      const {app, yaml} = await signedIn()
      const unknown = await failure(app.call('snap', {within: 'e999'}), 'any')
      expect(unknown.envelope.type).toBe('not_found')
      expect(unknown.message).toBe('ext.tapir.snap: within ref "e999" not found in registry')
      const found = await app.call('find', {text: 'API'})
      const handle = await failure(app.call('snap', {within: found.ref as string}), 'any')
      expect(handle.envelope.type).toBe('not_found')
      expect(handle.message).toContain('not addressable here')
      const pause = refOf(yaml, 'button "Pause"')
      await app.call('tap', {ref: pause, includeSnapshot: 'false'})
      const gone = await failure(app.call('snap', {within: pause}), 'any')
      expect(gone.envelope.type).toBe('stale')
    })

    it('a filtered snap never records the diff baseline; an unfiltered one does', async () => {
      const app = createMonitorsApp()
      await snap(app, {interactiveOnly: 'true'})
      const tapped = await app.call('tap', {ref: 'e4', snapshot: 'diff'})
      expect(tapped.snapshotMode).toBeUndefined()
      await snap(app)
      const again = await app.call('tap', {ref: 'e5', snapshot: 'diff'})
      expect(again.snapshotMode).toBe('diff')
    })
  })
})
