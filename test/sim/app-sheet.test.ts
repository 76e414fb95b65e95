import {describe, expect, it} from 'vitest'
import type {SimApp} from '../../src/sim/app-contract.js'
import {failure, quiet, refOf, signedInApp, snap} from './app-helpers.js'

/**
 * The New monitor sheet enters from below the view over 8 frames (cubic ease-out, 256 px tall):
 * on entrance frame i it sits (8 − i)³ / 2 px below its resting place, so Create's top edge is
 * 560 + that. Frame 0 is the first frame drawn after the FAB tap.
 */
const CREATE_TOP_BY_FRAME = [816, 731.5, 668, 622.5, 592, 573.5, 564, 560.5, 560]

interface Opened {
  app: SimApp
  /** The /monitors snapshot taken before the sheet opened. */
  page: string
  /** The FAB tap's post-action snapshot: the sheet on its entrance frame 0. */
  sheet: string
  create: string
}

/** Signed in on /monitors, the FAB tapped: the sheet has drawn its first entrance frame (frame 0). */
async function opened(): Promise<Opened> {
  const app = await signedInApp()
  const page = await snap(app)
  const tapped = await app.call('tap', {ref: refOf(page, 'button "New monitor"')})
  const sheet = tapped.snapshot as string
  return {app, page, sheet, create: refOf(sheet, 'button "Create"')}
}

/** Create's bounds as observe reports them (observe is a call, so it first draws one frame while the sheet enters). */
async function createBounds(app: SimApp): Promise<{x: number; y: number; w: number; h: number}> {
  const {candidates} = (await app.call('observe', {roles: 'button'})) as {
    candidates: Array<{label: string; bounds: {x: number; y: number; w: number; h: number}}>
  }
  const create = candidates.find((c) => c.label === 'Create')
  if (create === undefined) throw new Error('no Create button on screen')
  return create.bounds
}

async function snaps(app: SimApp, count: number): Promise<void> {
  for (let i = 0; i < count; i++) await snap(app)
}

const notStable = (ref: string, px: string): unknown => ({
  message: `Widget ref=${ref} is not actionable: not stable (rect changed by ${px}px)`,
  envelope: {type: 'not_stable', suggestions: [], widget_path: ref},
})

describe('New monitor sheet', () => {
  it('opens as a modal route over the page, its first frame wholly below the view', async () => {
    const app = await signedInApp()
    const page = await snap(app)
    const tapped = await app.call('tap', {ref: refOf(page, 'button "New monitor"')})
    expect(tapped.effect).toEqual({kind: 'treeChanged', changed: true})
    const sheet = tapped.snapshot as string
    expect(sheet).toMatch(
      /^- button "Cancel" \[ref=e\d+\] \[offscreen\]\n- heading "New monitor" \[ref=e\d+\] \[offscreen\]\n- button "Create" \[ref=e\d+\] \[offscreen\]\n- textbox "Name" \[ref=e\d+\] \[offscreen\]\n {2}typeable: true\n$/,
    )
    expect((await app.call('get_routes', {})).uri).toBe('/monitors')
  })

  it('slides up one step per frame drawn and comes to rest on frame 8', async () => {
    const {app} = await opened()
    const tops: number[] = []
    for (let frame = 1; frame <= 9; frame++) tops.push((await createBounds(app)).y)
    expect(tops).toEqual([...CREATE_TOP_BY_FRAME.slice(1), 560])
    expect(await createBounds(app)).toEqual({x: 304, y: 560, w: 88, h: 40})
    expect(await snap(app)).not.toContain('[offscreen]')
  })

  describe('the Stable gate', () => {
    it('refuses a gated tap on Create right after opening as not stable, with the not_stable envelope', async () => {
      const {app, create} = await opened()
      // The call draws frame 1, the gate pumps frame 2: Create moved 731.5 → 668.
      expect(await failure(app.call('tap', {ref: create, ...quiet}))).toEqual(notStable(create, '63.5'))
    })

    it('refuses the first three gated taps (63.5, 30.5, 9.5 px) and lets the fourth through', async () => {
      const {app, create} = await opened()
      expect(await failure(app.call('tap', {ref: create, ...quiet}))).toEqual(notStable(create, '63.5'))
      expect(await failure(app.call('tap', {ref: create, ...quiet}))).toEqual(notStable(create, '30.5'))
      expect(await failure(app.call('tap', {ref: create, ...quiet}))).toEqual(notStable(create, '9.5'))
      // Frames 7 → 8 move it by exactly 0.5 px, which the gate's "more than 0.5 px" lets through.
      const tapped = await app.call('tap', {ref: create})
      expect(tapped.effect).toEqual({kind: 'treeChanged', changed: true})
      expect(tapped.snapshot).toContain('- text "Enter a name"')
    })

    it('runs the same refusal for the other gated verbs (fill on Name, hover on Cancel)', async () => {
      const {app, sheet} = await opened()
      await snaps(app, 2)
      const name = refOf(sheet, 'textbox "Name"')
      expect(await failure(app.call('fill', {ref: name, text: 'Status page', ...quiet}))).toEqual(notStable(name, '30.5'))
      const cancel = refOf(sheet, 'button "Cancel"')
      expect(await failure(app.call('hover', {ref: cancel, ...quiet}))).toEqual(notStable(cancel, '9.5'))
    })

    it('checkStable=false skips the step: the tap lands on the moving button', async () => {
      const {app, create} = await opened()
      expect(await failure(app.call('tap', {ref: create, ...quiet}))).toEqual(notStable(create, '63.5'))
      const tapped = await app.call('tap', {ref: create, checkStable: 'false'})
      expect(tapped.effect).toEqual({kind: 'treeChanged', changed: true})
      expect(tapped.snapshot).toContain('- text "Enter a name"')
    })

    it('passes once the sheet has settled: six snaps after opening are enough, five are not', async () => {
      const early = await opened()
      await snaps(early.app, 5)
      expect(await failure(early.app.call('tap', {ref: early.create, ...quiet}))).toEqual(notStable(early.create, '3.5'))

      const settled = await opened()
      await snaps(settled.app, 6)
      expect(await settled.app.call('tap', {ref: settled.create, ...quiet})).toEqual({
        ref: settled.create,
        effect: {kind: 'treeChanged', changed: true},
      })
      // Settled for good: nothing moves any more.
      expect(await settled.app.call('tap', {ref: settled.create, ...quiet})).toEqual({
        ref: settled.create,
        effect: {kind: 'treeChanged', changed: false},
      })
    })

    it('stops drawing between calls once the entrance is over (the Ticker stops)', async () => {
      const {app} = await opened()
      const liveness = async (): Promise<number> => (await app.call('perf_begin', {})).livenessBaseline as number
      const first = await liveness()
      expect(await liveness()).toBeGreaterThan(first)
      await snaps(app, 8)
      const settled = await liveness()
      expect(await liveness()).toBe(settled)
    })
  })

  describe('Create', () => {
    it('adds the named monitor at the end of the list and closes the sheet', async () => {
      const {app, sheet, create} = await opened()
      await snaps(app, 6)
      await app.call('fill', {ref: refOf(sheet, 'textbox "Name"'), text: '  Status page ', ...quiet})
      await app.call('tap', {ref: create, ...quiet})
      const after = await snap(app)
      expect(after).not.toContain('heading "New monitor"')
      expect(after).toContain('- text "21 monitors"')
      expect(after).toMatch(
        /- button "Backup" \[ref=e\d+\] \[offscreen\]\n- button "Pause" \[ref=e\d+\] \[offscreen\]\n- button "Status page" \[ref=e\d+\] \[offscreen\]\n- button "Pause" \[ref=e\d+\] \[offscreen\]\n- text "21 monitors"/,
      )
      expect(app.evaluate('monitors.length')).toEqual({kind: 'value', value: {type: 'int', value: 21}})
      expect(app.evaluate('monitors.last.name')).toEqual({kind: 'value', value: {type: 'String', value: 'Status page'}})
      expect((await app.call('console', {limit: '1'})).logs).toMatchObject([{message: 'Created monitor 21 (Status page)'}])
    })

    it('with checkStable=false works mid-entrance too', async () => {
      const {app, sheet, create} = await opened()
      await snaps(app, 2)
      await app.call('fill', {ref: refOf(sheet, 'textbox "Name"'), text: 'Status page', checkStable: 'false', ...quiet})
      await app.call('tap', {ref: create, checkStable: 'false', ...quiet})
      expect(await snap(app)).toContain('- text "21 monitors"')
    })

    it('keeps the sheet open with an error while Name is blank', async () => {
      const {app, create} = await opened()
      await snaps(app, 6)
      await app.call('tap', {ref: create, ...quiet})
      const after = await snap(app)
      expect(after).toContain('- heading "New monitor"')
      expect(after).toContain('- text "Enter a name"')
      expect(after).not.toContain('21 monitors')
    })

    it('Enter in the Name field submits like Create', async () => {
      const {app, sheet} = await opened()
      await snaps(app, 6)
      await app.call('fill', {ref: refOf(sheet, 'textbox "Name"'), text: 'Status page', ...quiet})
      await app.call('press_key', {key: 'Enter', ...quiet})
      expect(await snap(app)).toContain('- text "21 monitors"')
    })
  })

  describe('closing', () => {
    it('Cancel closes it and the page comes back as it was', async () => {
      const {app, page, sheet} = await opened()
      await app.call('tap', {ref: refOf(sheet, 'button "Cancel"'), checkStable: 'false', ...quiet})
      expect(await snap(app)).toBe(page)
    })

    it('Escape closes it, mid-entrance or settled', async () => {
      const {app, page} = await opened()
      expect(await app.call('press_key', {key: 'Escape', ...quiet})).toEqual({ok: true, key: 'Escape'})
      expect(await snap(app)).toBe(page)
    })

    it('dismiss_modals pops it', async () => {
      const {app, page} = await opened()
      expect(await app.call('dismiss_modals', {})).toEqual({popped: 1})
      expect(await snap(app)).toBe(page)
    })

    it('reset_overlays pops it in its first layer', async () => {
      const {app, page} = await opened()
      await snaps(app, 8)
      expect(await app.call('reset_overlays', {})).toEqual({popped: 1, escaped: false, dismissTapped: false})
      expect(await snap(app)).toBe(page)
    })

    it('a name typed and abandoned is gone when the sheet opens again, and the new sheet enters from the start', async () => {
      const {app, sheet} = await opened()
      await snaps(app, 8)
      await app.call('fill', {ref: refOf(sheet, 'textbox "Name"'), text: 'Draft', ...quiet})
      await app.call('press_key', {key: 'Escape', ...quiet})
      const page = await snap(app)
      const reopened = await app.call('tap', {ref: refOf(page, 'button "New monitor"')})
      expect(reopened.snapshot).toContain('- textbox "Name" [ref=')
      expect(reopened.snapshot).not.toContain('Draft')
      expect(reopened.snapshot).toContain('[offscreen]')
    })

    it('takes the focus of its Name field with it, however it closes', async () => {
      for (const close of [
        {method: 'dismiss_modals', params: {}},
        {method: 'navigate', params: {route: '/monitors', ...quiet}},
      ]) {
        const {app, sheet} = await opened()
        await snaps(app, 8)
        await app.call('fill', {ref: refOf(sheet, 'textbox "Name"'), text: 'Draft', ...quiet})
        await app.call(close.method, close.params)
        await app.call('tap', {ref: refOf(await snap(app), 'button "New monitor"'), ...quiet})
        expect((await app.call('blur', {})).hadFocus, close.method).toBe(false)
      }
    })
  })

  describe('lifecycle', () => {
    it('freezes while no frame is drawn (a detached app: no progress) and goes on from the same frame on resume', async () => {
      const {app, create} = await opened()
      expect((await createBounds(app)).y).toBe(CREATE_TOP_BY_FRAME[1])
      app.setLifecycle('detached')
      for (let i = 0; i < 10; i++) expect((await createBounds(app)).y).toBe(CREATE_TOP_BY_FRAME[1])
      await snaps(app, 10)
      // Resuming draws frame 2, observe's call frame 3.
      app.setLifecycle('resumed')
      expect((await createBounds(app)).y).toBe(CREATE_TOP_BY_FRAME[3])
      // The tap's call draws frame 4, its gate frame 5: still moving.
      expect(await failure(app.call('tap', {ref: create, ...quiet}))).toEqual(notStable(create, '18.5'))
    })
  })

  describe('the FAB tooltip', () => {
    it('hover still shows "Create a monitor"; opening the sheet puts its barrier over the FAB and the tooltip goes', async () => {
      const app = await signedInApp()
      const page = await snap(app)
      const fab = refOf(page, 'button "New monitor"')
      expect((await app.call('hover', {ref: fab})).snapshot).toContain('- text "Create a monitor"')
      const tapped = await app.call('tap', {ref: fab})
      expect(tapped.snapshot).not.toContain('Create a monitor')
      await app.call('dismiss_modals', {})
      expect(await snap(app)).toBe(page)
    })
  })

  describe('perf', () => {
    it('records the entrance in an open session as a route transition', async () => {
      const app = await signedInApp()
      const page = await snap(app)
      await app.call('perf_begin', {})
      await app.call('tap', {ref: refOf(page, 'button "New monitor"'), ...quiet})
      await snaps(app, 8)
      const report = await app.call('perf_end', {})
      expect(report).toMatchObject({refused: false})
      expect((report.summary as {routeTransitions: unknown[]}).routeTransitions).toEqual([
        {route: '/monitors (newMonitor)', ms: expect.any(Number)},
      ])
    })
  })
})
