import {describe, expect, it} from 'vitest'
import {createMonitorsApp} from '../../src/sim/app/index.js'
import type {SimApp} from '../../src/sim/app-contract.js'
import {failure, onSettings, quiet, refOf, signedIn, snap} from './app-helpers.js'

function lineOf(yaml: string, fragment: string): string {
  const line = yaml.split('\n').find((l) => l.includes(fragment))
  if (line === undefined) throw new Error(`no line with ${fragment} in\n${yaml}`)
  return line
}

async function uri(app: SimApp): Promise<unknown> {
  return (await app.call('get_routes', {})).uri
}

describe('press_key', () => {
  it('answers {ok, key} with the label as sent, plus the snapshot unless turned off', async () => {
    const app = createMonitorsApp()
    const withSnapshot = await app.call('press_key', {key: 'Enter'})
    expect(withSnapshot.ok).toBe(true)
    expect(withSnapshot.key).toBe('Enter')
    expect(withSnapshot.snapshot).toContain('- heading "Sign in"')
    expect(await app.call('press_key', {key: 'enter', ...quiet})).toEqual({ok: true, key: 'enter'})
    expect(await app.call('press_key', {key: 's', snapshot: 'none'})).toEqual({ok: true, key: 's'})
  })

  it('Tab moves focus field to field, Enter in the password field submits the login form', async () => {
    const app = createMonitorsApp()
    const login = await snap(app)
    await app.call('type', {ref: refOf(login, 'textbox "Email"'), text: 'ann@example.com', ...quiet})
    await app.call('type', {ref: refOf(login, 'textbox "Password"'), text: 'hunter2', ...quiet})
    await app.call('blur', {})
    await app.call('press_key', {key: 'Tab', ...quiet}) // Email
    await app.call('press_key', {key: 'Enter', ...quiet}) // next: Password
    expect(await uri(app)).toBe('/login')
    await app.call('press_key', {key: 'Enter', ...quiet})
    expect(await uri(app)).toBe('/monitors')
  })

  it('Shift+Tab goes backwards and wraps; Tab wraps forwards', async () => {
    const app = createMonitorsApp()
    const login = await snap(app)
    await app.call('type', {ref: refOf(login, 'textbox "Email"'), text: 'ann@example.com', ...quiet})
    await app.call('type', {ref: refOf(login, 'textbox "Password"'), text: 'hunter2', ...quiet})
    await app.call('blur', {})
    await app.call('press_key', {key: 'Tab', modifiers: 'shift', ...quiet}) // nothing focused: the last field, Password
    await app.call('press_key', {key: 'Tab', modifiers: 'SHIFT', ...quiet}) // Email
    await app.call('press_key', {key: 'Tab', modifiers: 'Shift', ...quiet}) // wraps to Password
    await app.call('press_key', {key: 'Tab', ...quiet}) // wraps to Email
    await app.call('press_key', {key: 'Tab', ...quiet}) // Password
    await app.call('press_key', {key: 'Enter', ...quiet})
    expect(await uri(app)).toBe('/monitors')
  })

  it('Enter with nothing focused does nothing', async () => {
    const app = createMonitorsApp()
    const before = await snap(app)
    await app.call('press_key', {key: 'Enter', ...quiet})
    expect(await snap(app)).toBe(before)
    expect(await uri(app)).toBe('/login')
  })

  it('Escape closes the delete dialog and the region menu, leaving the page', async () => {
    const {app, yaml} = await signedIn()
    await app.call('tap', {ref: refOf(yaml, 'button "API"'), ...quiet})
    await app.call('tap', {ref: refOf(await snap(app), 'button "Delete"'), ...quiet})
    expect(await snap(app)).toContain('- text "Delete monitor?"')
    const closed = await app.call('press_key', {key: 'Escape'})
    expect(closed.snapshot).toContain('- heading "API"')
    expect(closed.snapshot).not.toContain('Delete monitor?')
    expect(await uri(app)).toBe('/monitors/1')
    await app.call('navigate', {route: '/settings', ...quiet})
    await app.call('tap', {ref: refOf(await snap(app), 'button "Region"'), ...quiet})
    expect(await snap(app)).toContain('- button "asia"')
    await app.call('press_key', {key: 'Esc', ...quiet})
    expect(await snap(app)).toContain('- heading "Settings"')
  })

  it('Escape closes the row context menu and the rename dialog', async () => {
    const {app, yaml} = await signedIn()
    await app.call('right_click', {ref: refOf(yaml, 'button "API"'), ...quiet})
    await app.call('press_key', {key: 'Escape', ...quiet})
    expect(await snap(app)).toBe(yaml)
    await app.call('right_click', {ref: refOf(yaml, 'button "API"'), ...quiet})
    await app.call('tap', {ref: refOf(await snap(app), 'button "Rename"'), ...quiet})
    await app.call('press_key', {key: 'Escape', ...quiet})
    expect(await snap(app)).toBe(yaml)
  })

  it('Enter in the rename dialog saves the name (the field is autofocused)', async () => {
    const {app, yaml} = await signedIn()
    const web = refOf(yaml, 'button "Web"')
    await app.call('right_click', {ref: web, ...quiet})
    await app.call('tap', {ref: refOf(await snap(app), 'button "Rename"'), ...quiet})
    await app.call('type', {ref: refOf(await snap(app), 'textbox "Name"'), text: 'Website', ...quiet})
    await app.call('press_key', {key: 'Enter', ...quiet})
    expect(await snap(app)).toContain(`- button "Website" [ref=${web}]`)
  })

  it('Ctrl+S and Meta+S on /settings show "Saved"; other modifier sets and other pages do nothing', async () => {
    const {app, yaml} = await onSettings()
    await app.call('press_key', {key: 'S', modifiers: 'control,shift', ...quiet})
    await app.call('press_key', {key: 'S', ...quiet})
    expect(await snap(app)).toBe(yaml)
    const saved = await app.call('press_key', {key: 's', modifiers: 'ctrl'})
    expect(saved.snapshot).toMatch(/- text "Saved"\n- button "Dismiss" \[ref=e\d+\]\n/)
    expect((await app.call('console', {limit: '1'})).logs).toMatchObject([{message: 'Settings saved'}])
    await app.call('tap', {ref: refOf(saved.snapshot as string, 'button "Dismiss"'), ...quiet})
    expect(await snap(app)).not.toContain('Saved')
    await app.call('press_key', {key: 'S', modifiers: ' Meta ', ...quiet})
    expect(await snap(app)).toContain('- text "Saved"')

    const other = await signedIn()
    await other.app.call('press_key', {key: 'S', modifiers: 'control', ...quiet})
    expect(await snap(other.app)).toBe(other.yaml)
  })

  it('a letter or digit with nothing focused does nothing, and types nothing into a focused field', async () => {
    const app = createMonitorsApp()
    const login = await snap(app)
    await app.call('press_key', {key: 'a', ...quiet})
    await app.call('press_key', {key: '7', ...quiet})
    expect(await snap(app)).toBe(login)
    await app.call('focus', {ref: refOf(login, 'textbox "Email"')})
    await app.call('press_key', {key: 'X', ...quiet})
    expect(await snap(app)).toBe(login)
  })

  it('Ctrl+A selects the focused field: Delete then empties it', async () => {
    const app = createMonitorsApp()
    const email = refOf(await snap(app), 'textbox "Email"')
    await app.call('fill', {ref: email, text: 'ann@example.com', ...quiet})
    await app.call('press_key', {key: 'Delete', ...quiet})
    expect(lineOf(await snap(app), 'textbox "Email"')).toContain('"ann@example.com"')
    await app.call('press_key', {key: 'A', modifiers: 'control', ...quiet})
    await app.call('press_key', {key: 'Delete', ...quiet})
    expect(lineOf(await snap(app), 'textbox "Email"')).toBe(`- textbox "Email" [ref=${email}]`)
  })

  it('ArrowDown and PageDown scroll the page list when no field has focus', async () => {
    const {app} = await signedIn()
    await app.call('press_key', {key: 'ArrowDown', ...quiet})
    expect((await app.call('scroll', {dy: '0', ...quiet})).finalOffset).toBe(50)
    await app.call('press_key', {key: 'Arrow Down', ...quiet})
    await app.call('press_key', {key: 'ArrowUp', ...quiet})
    expect((await app.call('scroll', {dy: '0', ...quiet})).finalOffset).toBe(50)
    await app.call('press_key', {key: 'PageDown', ...quiet})
    expect((await app.call('scroll', {dy: '0', ...quiet})).finalOffset).toBe(50 + 576 * 0.8)
  })

  it('refuses an unknown modifier before anything is pressed', async () => {
    const {app, yaml} = await onSettings()
    const error = await failure(app.call('press_key', {key: 'S', modifiers: 'control,hyper'}))
    expect(error).toEqual({
      message: 'ext.tapir.press_key: unknown modifier "hyper"; use control (or ctrl), shift, alt or meta',
      envelope: {type: 'unexpected', suggestions: []},
    })
    expect(await snap(app)).toBe(yaml)
  })

  it('refuses an unknown key, suggesting near names, and a missing one', async () => {
    const app = createMonitorsApp()
    const error = await failure(app.call('press_key', {key: 'Entr'}))
    expect(error.message).toMatch(/^ext\.tapir\.press_key: unknown key "Entr"; pass a logical key label \(Enter, Escape, Tab/)
    expect(error.envelope).toEqual({type: 'not_found', suggestions: ['Enter', 'End']})
    expect(await failure(app.call('press_key', {}))).toEqual({
      message: 'ext.tapir.press_key: missing required param "key"',
      envelope: {type: 'missing_param', suggestions: []},
    })
  })
})

describe('scroll', () => {
  it('scrolls the first Scrollable down 300 by default, and rows change offscreen', async () => {
    const {app, yaml} = await signedIn()
    expect(lineOf(yaml, 'button "API"')).not.toContain('[offscreen]')
    expect(lineOf(yaml, 'button "CDN"')).toContain('[offscreen]')
    const result = await app.call('scroll', {})
    expect(result.scrolled).toBe(true)
    expect(result.finalOffset).toBe(300)
    expect(result.effect).toEqual({kind: 'scrollOffset', changed: true, before: 0, after: 300})
    const after = result.snapshot as string
    expect(lineOf(after, 'button "API"')).toContain('[offscreen]')
    expect(lineOf(after, 'button "CDN"')).not.toContain('[offscreen]')
  })

  it('clamps a delta to the extents, and at the edge reports nothing scrolled', async () => {
    const {app} = await signedIn()
    const down = await app.call('scroll', {dy: '5000.0', ...quiet})
    expect(down).toEqual({scrolled: true, finalOffset: 704, effect: {kind: 'scrollOffset', changed: true, before: 0, after: 704}})
    const again = await app.call('scroll', {direction: 'down', pixels: '50', ...quiet})
    expect(again).toEqual({scrolled: false, finalOffset: 704, effect: {kind: 'scrollOffset', changed: false, before: 704, after: 704}})
    const up = await app.call('scroll', {direction: 'up', pixels: '10000', ...quiet})
    expect(up.effect).toEqual({kind: 'scrollOffset', changed: true, before: 704, after: 0})
  })

  it('dx/dy win over direction/pixels; a horizontal delta moves no vertical list', async () => {
    const {app} = await signedIn()
    expect((await app.call('scroll', {direction: 'up', pixels: '100', dy: '64', ...quiet})).finalOffset).toBe(64)
    const sideways = await app.call('scroll', {direction: 'right', ...quiet})
    expect(sideways).toMatchObject({scrolled: false, effect: {changed: false, before: 64, after: 64}})
    expect((await app.call('scroll', {dx: '100', ...quiet})).scrolled).toBe(false)
  })

  it('drives the Scrollable around a ref: the settings page brings its last tile on screen', async () => {
    const {app, yaml} = await onSettings()
    expect(lineOf(yaml, 'checkbox "Accept beta terms"')).toContain('[offscreen]')
    const result = await app.call('scroll', {ref: refOf(yaml, 'button "Dark mode"'), pixels: '600'})
    expect(result.effect).toEqual({kind: 'scrollOffset', changed: true, before: 0, after: 560})
    expect(lineOf(result.snapshot as string, 'checkbox "Accept beta terms"')).not.toContain('[offscreen]')
    expect(lineOf(result.snapshot as string, 'heading "Settings"')).toContain('[offscreen]')
  })

  it('intoView aligns the ref with the top of its Scrollable (Scrollable.ensureVisible)', async () => {
    const {app, yaml} = await signedIn()
    const db = refOf(yaml, 'button "DB"')
    // Row 2 starts at 2 * 64; its name sits 8 px into the row.
    const result = await app.call('scroll', {ref: db, intoView: 'true'})
    expect(result).toMatchObject({scrolled: true, finalOffset: 136, effect: {kind: 'scrollOffset', changed: true, before: 0, after: 136}})
    expect(lineOf(result.snapshot as string, 'button "API"')).toContain('[offscreen]')
    expect(lineOf(result.snapshot as string, 'button "DB"')).not.toContain('[offscreen]')
    // Already aligned: nothing moves.
    const again = await app.call('scroll', {ref: db, intoView: 'true', ...quiet})
    expect(again).toEqual({scrolled: false, finalOffset: 136, effect: {kind: 'scrollOffset', changed: false, before: 136, after: 136}})
    expect(lineOf(yaml, 'button "Cron"')).toContain('[offscreen]')
    const cron = await app.call('scroll', {ref: refOf(yaml, 'button "Cron"'), intoView: 'true'})
    expect(lineOf(cron.snapshot as string, 'button "Cron"')).not.toContain('[offscreen]')
  })

  it('intoView stops at the extents, and at the edge reports nothing scrolled', async () => {
    const {app, yaml} = await signedIn()
    const backup = refOf(yaml, 'button "Backup"')
    // Row 19's name would need 19 * 64 + 8; the list ends at 20 * 64 - 576 = 704.
    expect(await app.call('scroll', {ref: backup, intoView: 'true', ...quiet})).toEqual({
      scrolled: true,
      finalOffset: 704,
      effect: {kind: 'scrollOffset', changed: true, before: 0, after: 704},
    })
    const again = await app.call('scroll', {ref: backup, intoView: 'true', ...quiet})
    expect(again).toEqual({scrolled: false, finalOffset: 704, effect: {kind: 'scrollOffset', changed: false, before: 704, after: 704}})
  })

  it('intoView with no Scrollable around the ref reports scrolled: false', async () => {
    const app = createMonitorsApp()
    const email = refOf(await snap(app), 'textbox "Email"')
    expect(await app.call('scroll', {ref: email, intoView: 'true', ...quiet})).toEqual({
      scrolled: false,
      finalOffset: null,
      effect: {kind: 'scrollOffset', changed: false, before: null, after: null},
    })
  })

  it('a delta scroll with no laid-out Scrollable is a not_found error', async () => {
    const app = createMonitorsApp()
    expect(await failure(app.call('scroll', {}))).toEqual({
      message: 'ext.tapir.scroll: no laid-out Scrollable found',
      envelope: {type: 'not_found', suggestions: []},
    })
    const email = refOf(await snap(app), 'textbox "Email"')
    const around = await failure(app.call('scroll', {ref: email}))
    expect(around).toEqual({
      message: `ext.tapir.scroll: no laid-out Scrollable found at, around or inside ref ${email}`,
      envelope: {type: 'not_found', suggestions: [], widget_path: email},
    })
  })

  it('refuses intoView without a ref, an unknown direction and an unknown ref', async () => {
    const {app} = await signedIn()
    expect((await failure(app.call('scroll', {intoView: 'true'}))).envelope.type).toBe('missing_param')
    expect((await failure(app.call('scroll', {direction: 'sideways'}))).message).toBe(
      'ext.tapir.scroll: direction must be up, down, left or right, got "sideways"',
    )
    expect((await failure(app.call('scroll', {ref: 'e999'}))).envelope.type).toBe('not_found')
  })
})

describe('reset_overlays', () => {
  it('is all zero on a clean tree, and idempotent', async () => {
    const {app, yaml} = await signedIn()
    expect(await app.call('reset_overlays', {})).toEqual({popped: 0, escaped: false, dismissTapped: false})
    expect(await app.call('reset_overlays', {})).toEqual({popped: 0, escaped: false, dismissTapped: false})
    expect(await snap(app)).toBe(yaml)
  })

  it('layer 1 pops the popup routes and leaves the page stack', async () => {
    const {app, yaml} = await signedIn()
    await app.call('tap', {ref: refOf(yaml, 'button "API"'), ...quiet})
    await app.call('tap', {ref: refOf(await snap(app), 'button "Delete"'), ...quiet})
    expect(await app.call('reset_overlays', {})).toEqual({popped: 1, escaped: false, dismissTapped: false})
    expect(await uri(app)).toBe('/monitors/1')
    expect(await snap(app)).toContain('- heading "API"')
  })

  it('layer 2 presses Escape for an overlay no route owns (the FAB tooltip)', async () => {
    const {app, yaml} = await signedIn()
    await app.call('hover', {ref: refOf(yaml, 'button "New monitor"'), ...quiet})
    expect(await app.call('reset_overlays', {})).toEqual({popped: 0, escaped: true, dismissTapped: false})
    expect(await snap(app)).toBe(yaml)
  })

  it('layer 3 taps Dismiss on a snack bar that Escape does not close', async () => {
    const {app, yaml} = await onSettings()
    await app.call('press_key', {key: 'S', modifiers: 'control', ...quiet})
    expect(await app.call('reset_overlays', {})).toEqual({popped: 0, escaped: true, dismissTapped: true})
    expect(await snap(app)).toBe(yaml)
  })

  it('escalates through all three layers in one call', async () => {
    const {app, yaml} = await onSettings()
    await app.call('press_key', {key: 'S', modifiers: 'control', ...quiet})
    await app.call('tap', {ref: refOf(yaml, 'button "Region"'), ...quiet})
    const open = await snap(app)
    expect(open).toContain('- button "asia"')
    expect(open).not.toContain('Saved')
    expect(await app.call('reset_overlays', {})).toEqual({popped: 1, escaped: true, dismissTapped: true})
    expect(await snap(app)).toBe(yaml)
  })
})

describe('close_app', () => {
  it('answers {closed: true}; then every call fails as an app that is gone, until a restart', async () => {
    const app = createMonitorsApp()
    expect(await app.call('close_app', {})).toEqual({closed: true})
    expect((app as SimApp & {closed: boolean}).closed).toBe(true)
    for (const method of ['snap', 'boot_id', 'close_app']) {
      const error = await failure(app.call(method, {}))
      expect(error).toEqual({
        message: `ext.tapir.${method}: the app has closed (close_app asked it to shut down); relaunch it to continue`,
        envelope: {type: 'unexpected', suggestions: []},
      })
    }
    app.restart()
    expect((app as SimApp & {closed: boolean}).closed).toBe(false)
    expect(await snap(app)).toContain('- heading "Sign in"')
  })
})

describe('evaluate (the extension)', () => {
  it('is a sentinel that never evaluates by itself', async () => {
    const app = createMonitorsApp()
    const result = await app.call('evaluate', {expression: '1 + 1'})
    expect(result).toMatchObject({evaluated: false, expression: '1 + 1'})
    expect(result.reason).toMatch(/sentinel.*VM Service evaluate RPC in the root library/)
    expect(result).not.toHaveProperty('result')
  })
})

describe('frame production', () => {
  it('every new verb but close_app and evaluate wakes a hidden window, and carries the warnings block where it cannot', async () => {
    const {yaml} = await signedIn()
    const fab = refOf(yaml, 'button "New monitor"')
    const api = refOf(yaml, 'button "API"')
    const calls: Array<[string, Record<string, string>]> = [
      ['hover', {ref: fab, ...quiet}],
      ['dblclick', {ref: fab, ...quiet}],
      ['right_click', {ref: fab, ...quiet}],
      ['triple_click', {ref: fab, ...quiet}],
      ['drag', {startRef: api, endRef: api, ...quiet}],
      ['focus', {ref: fab}],
      ['blur', {}],
      ['press_key', {key: 'Tab', ...quiet}],
      ['scroll', {...quiet}],
      ['reset_overlays', {}],
      ['screenshot', {geometry: 'true'}],
    ]
    // Each verb on an app of its own: a woken verb takes effect, and may change what the next would meet.
    for (const [method, params] of calls) {
      const hidden = (await signedIn()).app
      hidden.setLifecycle('hidden')
      const answer = await hidden.call(method, params)
      expect(answer.framesForced, method).toBe(true)
      expect(answer, method).not.toHaveProperty('warnings')
      const detached = (await signedIn()).app
      detached.setLifecycle('detached')
      expect((await detached.call(method, params)).warnings, method).toMatchObject({framesEnabled: false, lifecycleState: 'detached'})
    }
    const app = (await signedIn()).app
    app.setLifecycle('detached')
    expect(await app.call('evaluate', {})).not.toHaveProperty('warnings')
    expect(await app.call('close_app', {})).toEqual({closed: true})
  })

  it('clear wakes a paused window too', async () => {
    const app = createMonitorsApp()
    const email = refOf(await snap(app), 'textbox "Email"')
    app.setLifecycle('paused')
    expect(await app.call('clear', {ref: email})).toMatchObject({framesForced: true, effect: {verified: true}})
  })
})
