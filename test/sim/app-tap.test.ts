import {describe, expect, it} from 'vitest'
import {createMonitorsApp} from '../../src/sim/app/index.js'
import {failure, quiet, refOf, signedIn, snap} from './app-helpers.js'

describe('tap', () => {
  it('drives the model at the live centre and reports the tree change', async () => {
    const {app, yaml} = await signedIn()
    const result = await app.call('tap', {ref: refOf(yaml, 'button "Pause"'), ...quiet})
    expect(result).toEqual({ref: refOf(yaml, 'button "Pause"'), effect: {kind: 'treeChanged', changed: true}})
    expect(await snap(app)).toMatch(/- button "API" \[ref=e\d+\]\n- button "Resume" \[ref=e\d+\]/)
  })

  it('reports changed: false when the tap lands but nothing observable happens', async () => {
    const {app, yaml} = await signedIn()
    const result = await app.call('tap', {ref: refOf(yaml, 'heading "Monitors"'), ...quiet})
    expect(result.effect).toEqual({kind: 'treeChanged', changed: false})
  })

  it('navigates: a row opens its detail page and Back returns', async () => {
    const {app, yaml} = await signedIn()
    await app.call('tap', {ref: refOf(yaml, 'button "Web"'), ...quiet})
    const detail = await snap(app)
    expect(detail).toContain('- heading "Web"')
    expect(detail).toContain('- text "Status: up"')
    expect(detail).not.toContain('button "Pause"')
    await app.call('tap', {ref: refOf(detail, 'button "Back"'), ...quiet})
    expect(await snap(app)).toContain('- heading "Monitors"')
  })

  it('refuses a missing ref and an unknown one, suggesting near refs', async () => {
    const app = createMonitorsApp()
    await snap(app)
    const missing = await failure(app.call('tap', {}))
    expect(missing).toEqual({message: 'ext.tapir.tap: missing required param "ref"', envelope: {type: 'missing_param', suggestions: []}})
    const unknown = await failure(app.call('tap', {ref: 'e55'}))
    expect(unknown.message).toBe('Widget ref=e55 is not actionable: not found in registry (take a snapshot and use a ref from it)')
    expect(unknown.envelope).toMatchObject({type: 'not_found', widget_path: 'e55'})
    expect(unknown.envelope.suggestions).toEqual(['e5', 'e1', 'e2'])
    expect((await failure(app.call('tap', {ref: 'x1'}))).envelope.type).toBe('not_found')
  })

  describe('actionability gate', () => {
    it('refuses a disabled button', async () => {
      const {app, yaml} = await signedIn()
      const ref = refOf(yaml, 'button "Export"')
      expect(await failure(app.call('tap', {ref}))).toEqual({
        message: `Widget ref=${ref} is not actionable: not enabled`,
        envelope: {type: 'disabled', suggestions: [], widget_path: ref},
      })
    })

    it('refuses a zero-size button', async () => {
      const {app, yaml} = await signedIn()
      const ref = refOf(yaml, 'button "Refresh"')
      const error = await failure(app.call('tap', {ref}))
      expect(error.message).toBe(`Widget ref=${ref} is not actionable: zero rect`)
      expect(error.envelope.type).toBe('zero_rect')
    })

    it('refuses the Pause button under the FAB, naming the widget on top', async () => {
      const {app, yaml} = await signedIn()
      const ref = refOf(yaml, 'button "Pause"', 8)
      const error = await failure(app.call('tap', {ref}))
      expect(error.message).toBe(`Widget ref=${ref} is not actionable: obscured by other widget (top=FloatingActionButton)`)
      expect(error.envelope.type).toBe('obscured')
    })

    it('with checkReceivesEvents=false taps whatever is on top', async () => {
      const {app, yaml} = await signedIn()
      const result = await app.call('tap', {
        ref: refOf(yaml, 'button "Pause"', 8),
        checkReceivesEvents: 'false',
        checkStable: 'false',
        ...quiet,
      })
      // The FAB on top takes the tap and opens its sheet; the Pause button under it never sees it.
      expect(result.effect).toEqual({kind: 'treeChanged', changed: true})
      const after = await snap(app)
      expect(after).toContain('- heading "New monitor"')
      expect(after).not.toContain('"Resume"')
    })

    it('scrolls a list row into view before tapping it', async () => {
      const {app, yaml} = await signedIn()
      const ref = refOf(yaml, 'button "Cron"')
      expect(yaml.split('\n').find((l) => l.includes(`[ref=${ref}]`))).toContain('[offscreen]')
      const result = await app.call('tap', {ref, ...quiet})
      expect(result.effect).toEqual({kind: 'treeChanged', changed: true})
      expect(await snap(app)).toContain('- heading "Cron"')
    })

    it('still refuses a Pause button that scrolling into view leaves under the FAB', async () => {
      const {app, yaml} = await signedIn()
      const ref = refOf(yaml, 'button "Pause"', 14)
      const error = await failure(app.call('tap', {ref}))
      expect(error.message).toBe(`Widget ref=${ref} is not actionable: obscured by other widget (top=FloatingActionButton)`)
      const scrolled = await snap(app)
      expect(scrolled.split('\n').find((l) => l.includes(`[ref=${ref}]`))).toMatch(/\[occluded\]$/)
      expect(scrolled.split('\n').find((l) => l.includes('button "API"'))).toMatch(/\[offscreen\]$/)
    })

    it('refuses a widget no scroll can bring into view, with Flutter rects', async () => {
      const {app, yaml} = await signedIn()
      await app.call('tap', {ref: refOf(yaml, 'button "Settings"'), ...quiet})
      const settings = await snap(app)
      const ref = refOf(settings, 'button "Sync now"')
      const error = await failure(app.call('tap', {ref}))
      expect(error.message).toBe(
        `Widget ref=${ref} is not actionable: off-viewport (rect=Rect.fromLTRB(404.0, 420.0, 500.0, 460.0), viewport=Rect.fromLTRB(0.0, 0.0, 400.0, 800.0))`,
      )
      expect(error.envelope.type).toBe('off_viewport')
    })

    it('scrolls the settings page to reach the checkbox at y 1200', async () => {
      const {app, yaml} = await signedIn()
      await app.call('tap', {ref: refOf(yaml, 'button "Settings"'), ...quiet})
      const ref = refOf(await snap(app), 'checkbox "Accept beta terms"')
      expect((await app.call('tap', {ref, ...quiet})).effect).toEqual({kind: 'treeChanged', changed: true})
      expect(app.evaluate('currentRoute')).toEqual({kind: 'value', value: {type: 'String', value: '/settings'}})
      expect((await snap(app)).split('\n').find((l) => l.includes('Accept beta terms'))).not.toContain('[offscreen]')
    })

    it('refuses a page widget covered by a dialog: the modal barrier takes the hit', async () => {
      const {app, yaml} = await signedIn()
      await app.call('tap', {ref: refOf(yaml, 'button "API"'), ...quiet})
      const detail = await snap(app)
      await app.call('tap', {ref: refOf(detail, 'button "Delete"'), ...quiet})
      const dialog = await snap(app)
      expect(dialog).toMatch(/^- text "Delete monitor\?"\n- button "Cancel" \[ref=e\d+\]\n- button "Delete" \[ref=e\d+\]\n$/)
      const back = refOf(detail, 'button "Back"')
      expect((await failure(app.call('tap', {ref: back}))).message).toBe(
        `Widget ref=${back} is not actionable: obscured by other widget (top=ModalBarrier)`,
      )
      await app.call('tap', {ref: refOf(dialog, 'button "Delete"'), ...quiet})
      const list = await snap(app)
      expect(list).toContain('- text "19 monitors"')
      expect(list).not.toContain('"API"')
    })
  })

  describe('stale e refs', () => {
    it('relocates a ref whose node was replaced when the label count and route still match', async () => {
      const {app, yaml} = await signedIn()
      const pause = refOf(yaml, 'button "Pause"')
      await app.call('tap', {ref: pause, ...quiet})
      const resume = refOf(await snap(app), 'button "Resume"')
      await app.call('tap', {ref: resume, ...quiet})
      const result = await app.call('tap', {ref: pause, ...quiet})
      expect(result.reresolved).toEqual([pause])
      expect(await snap(app)).toMatch(/- button "API" \[ref=e\d+\]\n- button "Resume"/)
    })

    it('refuses when the live count of that label differs from snapshot time', async () => {
      const {app, yaml} = await signedIn()
      const pause = refOf(yaml, 'button "Pause"')
      await app.call('tap', {ref: pause, ...quiet})
      const error = await failure(app.call('tap', {ref: pause}))
      expect(error).toEqual({
        message: `Widget ref=${pause} is not actionable: defunct (element no longer mounted)`,
        envelope: {type: 'stale', suggestions: [], widget_path: pause},
      })
    })

    it('refuses when the only candidate sits on another route', async () => {
      const {app, yaml} = await signedIn()
      await app.call('tap', {ref: refOf(yaml, 'button "API"'), ...quiet})
      const first = await snap(app)
      const del = refOf(first, 'button "Delete"')
      await app.call('tap', {ref: refOf(first, 'button "Back"'), ...quiet})
      await app.call('tap', {ref: refOf(yaml, 'button "Web"'), ...quiet})
      expect((await failure(app.call('tap', {ref: del}))).envelope.type).toBe('stale')
    })
  })

  it('retargets a tap on a merge boundary to its switch, and taps the centre with retarget=false', async () => {
    const {app, yaml} = await signedIn()
    const tile = refOf(yaml, 'button "Alerts enabled"')
    const retargeted = await app.call('tap', {ref: tile, ...quiet})
    expect(retargeted.retargeted).toEqual({
      from: {x: 200, y: 88},
      to: {x: 342, y: 88},
      ownerRect: {left: 316, top: 68, width: 52, height: 40},
    })
    expect(retargeted.effect).toEqual({kind: 'treeChanged', changed: true})
    expect(app.evaluate('monitors.length').kind).toBe('value')
    const centre = await app.call('tap', {ref: tile, retarget: 'false', ...quiet})
    expect(centre.retargeted).toBeUndefined()
    expect(centre.effect).toEqual({kind: 'treeChanged', changed: false})
  })

  describe('post-action snapshot', () => {
    it('is the full YAML by default and nothing with includeSnapshot=false or snapshot=none', async () => {
      const app = createMonitorsApp()
      const yaml = await snap(app)
      const full = await app.call('tap', {ref: refOf(yaml, 'link "Forgot password?"')})
      expect(full.snapshot).toContain('- text "Reset link sent"')
      expect(full.snapshotMode).toBeUndefined()
      expect(await app.call('tap', {ref: refOf(yaml, 'link'), includeSnapshot: 'true', snapshot: 'none'})).not.toHaveProperty('snapshot')
    })

    it('diff lists the changed lines against the last unfiltered snapshot, then becomes the new baseline', async () => {
      const {app, yaml} = await signedIn()
      const pause = refOf(yaml, 'button "Pause"')
      const result = await app.call('tap', {ref: pause, snapshot: 'diff', includeSnapshot: 'false'})
      expect(result.snapshotMode).toBe('diff')
      const resume = refOf(result.snapshot as string, 'button "Resume"')
      expect(result.snapshot).toBe(`- - button "Pause" [ref=${pause}]\n+ - button "Resume" [ref=${resume}]\n(1 of 49 lines changed)\n`)
      const next = await app.call('tap', {ref: refOf(yaml, 'heading "Monitors"'), snapshot: 'diff'})
      expect(next.snapshot).toBe('(0 of 49 lines changed)\n')
    })

    it('diff with no baseline yet answers the full text', async () => {
      const app = createMonitorsApp()
      await app.call('observe', {})
      const result = await app.call('tap', {ref: 'q4', snapshot: 'diff'})
      expect(result.snapshotMode).toBeUndefined()
      expect(result.snapshot).toContain('- text "Enter your email and password"')
    })

    it('diff shows added rows with + and removed rows with -', async () => {
      const app = createMonitorsApp()
      const yaml = await snap(app)
      const added = await app.call('tap', {ref: refOf(yaml, 'button "Sign in"'), snapshot: 'diff'})
      expect(added.snapshot).toBe('+ - text "Enter your email and password"\n(1 of 8 lines changed)\n')
    })
  })

  describe('until', () => {
    it('confirms the text appeared after the tap', async () => {
      const app = createMonitorsApp()
      const login = await snap(app)
      await app.call('fill', {ref: refOf(login, 'textbox "Email"'), text: 'ann@example.com', ...quiet})
      await app.call('fill', {ref: refOf(login, 'textbox "Password"'), text: 'hunter2', ...quiet})
      const result = await app.call('tap', {ref: refOf(login, 'button "Sign in"'), until: 'Monitors', ...quiet})
      expect(result.untilMatched).toBe(true)
    })

    it('answers untilMatched false after polling up to untilTimeoutMs', async () => {
      const app = createMonitorsApp()
      const login = await snap(app)
      const started = Date.now()
      const result = await app.call('tap', {ref: refOf(login, 'button "Sign in"'), until: 'Monitors', untilTimeoutMs: '300', ...quiet})
      expect(result.untilMatched).toBe(false)
      expect(Date.now() - started).toBeGreaterThanOrEqual(290)
      expect(result.effect).toEqual({kind: 'treeChanged', changed: true})
    })
  })
})
