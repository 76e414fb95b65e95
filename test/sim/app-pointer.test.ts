import {describe, expect, it} from 'vitest'
import {createMonitorsApp} from '../../src/sim/app/index.js'
import {failure, onSettings, quiet, refOf, signedIn, snap} from './app-helpers.js'

/** The monitor row names, in list order. */
function rowNames(yaml: string): string[] {
  const names: string[] = []
  const lines = yaml.split('\n')
  lines.forEach((line, i) => {
    const next = lines[i + 1] ?? ''
    const match = /^- button "([^"]+)" \[ref=e\d+\]/.exec(line)
    if (match && /^- button "(Pause|Resume)"/.test(next)) names.push(match[1]!)
  })
  return names
}

describe('hover', () => {
  it('shows the New monitor tooltip, and a hover elsewhere hides it', async () => {
    const {app, yaml} = await signedIn()
    const fab = refOf(yaml, 'button "New monitor"')
    const result = await app.call('hover', {ref: fab})
    expect(Object.keys(result).sort()).toEqual(['ref', 'snapshot'])
    expect(result.ref).toBe(fab)
    expect(result.snapshot).toContain('- text "Create a monitor"')
    await app.call('hover', {ref: refOf(yaml, 'heading "Monitors"'), ...quiet})
    expect(await snap(app)).not.toContain('Create a monitor')
  })

  it('answers {ref} alone with includeSnapshot false or snapshot none', async () => {
    const {app, yaml} = await signedIn()
    const fab = refOf(yaml, 'button "New monitor"')
    expect(await app.call('hover', {ref: fab, ...quiet})).toEqual({ref: fab})
    expect(await app.call('hover', {ref: fab, snapshot: 'none', includeSnapshot: 'true'})).toEqual({ref: fab})
  })

  it('runs the gate: a disabled Export button is refused', async () => {
    const {app, yaml} = await signedIn()
    const ref = refOf(yaml, 'button "Export"')
    expect(await failure(app.call('hover', {ref}))).toEqual({
      message: `Widget ref=${ref} is not actionable: not enabled`,
      envelope: {type: 'disabled', suggestions: [], widget_path: ref},
    })
  })

  it('refuses a missing and an unknown ref', async () => {
    const {app} = await signedIn()
    expect((await failure(app.call('hover', {}))).envelope.type).toBe('missing_param')
    const unknown = await failure(app.call('hover', {ref: 'e999'}))
    expect(unknown.message).toBe('Widget ref=e999 is not actionable: not found in registry (take a snapshot and use a ref from it)')
    expect(unknown.envelope.type).toBe('not_found')
  })
})

describe('dblclick', () => {
  it('toggles the ★ favourite mark on a monitor row, keeping its ref', async () => {
    const {app, yaml} = await signedIn()
    const web = refOf(yaml, 'button "Web"')
    const result = await app.call('dblclick', {ref: web})
    expect(result.ref).toBe(web)
    expect(result.snapshot).toContain(`- button "Web ★" [ref=${web}]`)
    expect(result.snapshot).toContain('- heading "Monitors"')
    await app.call('dblclick', {ref: web, ...quiet})
    expect(await snap(app)).toContain(`- button "Web" [ref=${web}]`)
  })

  it('reports only the changed lines with snapshot diff', async () => {
    const {app, yaml} = await signedIn()
    const web = refOf(yaml, 'button "Web"')
    const result = await app.call('dblclick', {ref: web, snapshot: 'diff'})
    expect(result.snapshotMode).toBe('diff')
    expect(result.snapshot).toMatch(/^- - button "Web" \[ref=e\d+\]\n\+ - button "Web ★" \[ref=e\d+\]\n\(1 of \d+ lines changed\)\n$/)
  })

  it('taps twice where there is no double-tap handler (Pause, then Resume in its place)', async () => {
    const {app, yaml} = await signedIn()
    await app.call('dblclick', {ref: refOf(yaml, 'button "Pause"'), ...quiet})
    expect(rowNames(await snap(app))[0]).toBe('API')
    expect(await snap(app)).not.toContain('"Resume"')
  })

  it('runs the gate once before the clicks: a Pause under the FAB is obscured', async () => {
    const {app, yaml} = await signedIn()
    const ref = refOf(yaml, 'button "Pause"', 8)
    const error = await failure(app.call('dblclick', {ref}))
    expect(error.message).toBe(`Widget ref=${ref} is not actionable: obscured by other widget (top=FloatingActionButton)`)
    expect(error.envelope.type).toBe('obscured')
  })
})

describe('right_click', () => {
  it('opens the row context menu with Rename and Duplicate, and answers button: "right"', async () => {
    const {app, yaml} = await signedIn()
    const api = refOf(yaml, 'button "API"')
    const result = await app.call('right_click', {ref: api})
    expect(result.ref).toBe(api)
    expect(result.button).toBe('right')
    expect(result.snapshot).toMatch(/^- button "Rename" \[ref=e\d+\]\n- button "Duplicate" \[ref=e\d+\]\n$/)
    expect((await app.call('get_routes', {})).uri).toBe('/monitors')
  })

  it('Duplicate inserts "<name> copy" under the original', async () => {
    const {app, yaml} = await signedIn()
    await app.call('right_click', {ref: refOf(yaml, 'button "DB"'), ...quiet})
    await app.call('tap', {ref: refOf(await snap(app), 'button "Duplicate"'), ...quiet})
    const after = await snap(app)
    expect(rowNames(after).slice(0, 5)).toEqual(['API', 'Web', 'DB', 'DB copy', 'Queue'])
    expect(after).toContain('- text "21 monitors"')
  })

  it('Rename opens a dialog with the name in an autofocused field; Save renames the row', async () => {
    const {app, yaml} = await signedIn()
    const api = refOf(yaml, 'button "API"')
    await app.call('right_click', {ref: api, ...quiet})
    await app.call('tap', {ref: refOf(await snap(app), 'button "Rename"'), ...quiet})
    const dialog = await snap(app)
    expect(dialog).toMatch(
      /^- text "Rename monitor"\n- textbox "Name": "API" \[ref=e\d+\]\n {2}typeable: true\n- button "Cancel" \[ref=e\d+\]\n- button "Save" \[ref=e\d+\]\n$/,
    )
    await app.call('fill', {ref: refOf(dialog, 'textbox "Name"'), text: 'Core API', ...quiet})
    await app.call('tap', {ref: refOf(dialog, 'button "Save"'), ...quiet})
    expect(await snap(app)).toContain(`- button "Core API" [ref=${api}]`)
  })

  it('does nothing where no widget handles a secondary click', async () => {
    const {app, yaml} = await signedIn()
    const result = await app.call('right_click', {ref: refOf(yaml, 'button "Pause"'), ...quiet})
    expect(result).toEqual({ref: refOf(yaml, 'button "Pause"'), button: 'right'})
    expect(await snap(app)).toBe(yaml)
  })
})

describe('triple_click', () => {
  it('focuses a text field and selects all of it: Backspace then empties it', async () => {
    const app = createMonitorsApp()
    const login = await snap(app)
    const email = refOf(login, 'textbox "Email"')
    await app.call('fill', {ref: email, text: 'ann@example.com', ...quiet})
    await app.call('blur', {})
    const result = await app.call('triple_click', {ref: email, ...quiet})
    expect(result).toEqual({ref: email, clickCount: 3})
    await app.call('press_key', {key: 'Backspace', ...quiet})
    expect(await snap(app)).toContain(`- textbox "Email" [ref=${email}]`)
  })

  it('without the selection Backspace deletes one character', async () => {
    const app = createMonitorsApp()
    const email = refOf(await snap(app), 'textbox "Email"')
    await app.call('fill', {ref: email, text: 'ann@example.com', ...quiet})
    await app.call('press_key', {key: 'Backspace', ...quiet})
    expect(await snap(app)).toContain(`- textbox "Email": "ann@example.co" [ref=${email}]`)
  })

  it('on a row name: the double tap marks it favourite and the third click opens it', async () => {
    const {app, yaml} = await signedIn()
    const result = await app.call('triple_click', {ref: refOf(yaml, 'button "Web"')})
    expect(result.clickCount).toBe(3)
    expect(result.snapshot).toContain('- heading "Web"')
    await app.call('navigate_back', {})
    expect(await snap(app)).toContain('- button "Web ★"')
  })

  it('refuses a zero-size button at the gate', async () => {
    const {app, yaml} = await signedIn()
    const ref = refOf(yaml, 'button "Refresh"')
    expect((await failure(app.call('triple_click', {ref}))).envelope).toEqual({type: 'zero_rect', suggestions: [], widget_path: ref})
  })
})

describe('drag', () => {
  it('drops one row name on another: the dragged row takes its place', async () => {
    const {app, yaml} = await signedIn()
    const api = refOf(yaml, 'button "API"')
    const db = refOf(yaml, 'button "DB"')
    const result = await app.call('drag', {startRef: api, endRef: db})
    expect(result.startRef).toBe(api)
    expect(result.endRef).toBe(db)
    expect(rowNames(result.snapshot as string).slice(0, 4)).toEqual(['Web', 'DB', 'API', 'Queue'])
    // The refs follow their monitors.
    expect(result.snapshot).toContain(`- button "API" [ref=${api}]`)
    await app.call('drag', {startRef: db, endRef: refOf(yaml, 'button "Web"'), ...quiet})
    expect(rowNames(await snap(app)).slice(0, 4)).toEqual(['DB', 'Web', 'API', 'Queue'])
  })

  it('answers {startRef, endRef} alone without a snapshot; a drop on itself changes nothing', async () => {
    const {app, yaml} = await signedIn()
    const api = refOf(yaml, 'button "API"')
    expect(await app.call('drag', {startRef: api, endRef: api, ...quiet})).toEqual({startRef: api, endRef: api})
    expect(await snap(app)).toBe(yaml)
  })

  it('scrolls an offscreen end into view before dropping there', async () => {
    const {app, yaml} = await signedIn()
    await app.call('drag', {startRef: refOf(yaml, 'button "Mail"'), endRef: refOf(yaml, 'button "Logs"'), ...quiet})
    const names = rowNames(await snap(app))
    expect(names.indexOf('Mail')).toBe(names.indexOf('Logs') + 1)
    expect(names).toHaveLength(20)
  })

  it('a drag with no Draggable under the start scrolls the list under the pointer', async () => {
    const {app, yaml} = await signedIn()
    await app.call('drag', {startRef: refOf(yaml, 'button "Pause"', 4), endRef: refOf(yaml, 'button "Pause"', 1), ...quiet})
    const scrolled = await app.call('scroll', {dy: '0', ...quiet})
    expect(scrolled.finalOffset).toBe(192)
  })

  it('refuses a missing ref on either end before anything moves', async () => {
    const {app, yaml} = await signedIn()
    const api = refOf(yaml, 'button "API"')
    expect(await failure(app.call('drag', {endRef: api}))).toMatchObject({
      message: 'ext.tapir.drag: missing required param "startRef"',
      envelope: {type: 'missing_param'},
    })
    expect(await failure(app.call('drag', {startRef: api}))).toMatchObject({
      message: 'ext.tapir.drag: missing required param "endRef"',
      envelope: {type: 'missing_param'},
    })
  })

  it('gates both ends: unknown, stale and obscured refs fail, naming the ref', async () => {
    const {app, yaml} = await signedIn()
    const api = refOf(yaml, 'button "API"')
    const unknown = await failure(app.call('drag', {startRef: 'e999', endRef: api}))
    expect(unknown).toMatchObject({
      message: 'Widget ref=e999 is not actionable: not found in registry (take a snapshot and use a ref from it)',
      envelope: {type: 'not_found', widget_path: 'e999'},
    })
    const covered = refOf(yaml, 'button "Pause"', 8)
    const obscured = await failure(app.call('drag', {startRef: api, endRef: covered}))
    expect(obscured.message).toBe(`Widget ref=${covered} is not actionable: obscured by other widget (top=FloatingActionButton)`)
    // Pausing swaps the Pause button for a Resume one: the old ref is defunct.
    const pause = refOf(yaml, 'button "Pause"')
    await app.call('tap', {ref: pause, ...quiet})
    const stale = await failure(app.call('drag', {startRef: api, endRef: pause}))
    expect(stale).toEqual({
      message: `Widget ref=${pause} is not actionable: defunct (element no longer mounted)`,
      envelope: {type: 'stale', suggestions: [], widget_path: pause},
    })
    expect(rowNames(await snap(app)).slice(0, 2)).toEqual(['API', 'Web'])
  })
})

describe('focus and blur', () => {
  it('focus answers {ref, focused: true}; blur then reports it had focus, and again that nothing had', async () => {
    const app = createMonitorsApp()
    const email = refOf(await snap(app), 'textbox "Email"')
    expect(await app.call('blur', {})).toEqual({blurred: true, hadFocus: false})
    expect(await app.call('focus', {ref: email})).toEqual({ref: email, focused: true})
    expect(await app.call('blur', {})).toEqual({blurred: true, hadFocus: true})
    expect(await app.call('blur', {})).toEqual({blurred: true, hadFocus: false})
  })

  it('embeds a snapshot only when asked', async () => {
    const app = createMonitorsApp()
    const email = refOf(await snap(app), 'textbox "Email"')
    expect((await app.call('focus', {ref: email, includeSnapshot: 'true'})).snapshot).toContain('- heading "Sign in"')
    expect((await app.call('blur', {includeSnapshot: '1'})).snapshot).toContain('- heading "Sign in"')
  })

  it('a focused password field submits the form on Enter', async () => {
    const app = createMonitorsApp()
    const login = await snap(app)
    await app.call('type', {ref: refOf(login, 'textbox "Email"'), text: 'ann@example.com', ...quiet})
    await app.call('type', {ref: refOf(login, 'textbox "Password"'), text: 'hunter2', ...quiet})
    await app.call('focus', {ref: refOf(login, 'textbox "Password"')})
    await app.call('press_key', {key: 'Enter', ...quiet})
    expect((await app.call('get_routes', {})).uri).toBe('/monitors')
  })

  it('a focused button is activated by Enter and by Space', async () => {
    const {app, yaml} = await signedIn()
    await app.call('focus', {ref: refOf(yaml, 'button "Pause"')})
    await app.call('press_key', {key: 'Enter', ...quiet})
    const paused = await snap(app)
    expect(paused).toContain('- button "Resume"')
    await app.call('focus', {ref: refOf(paused, 'button "Resume"')})
    await app.call('press_key', {key: 'Space', ...quiet})
    expect(await snap(app)).not.toContain('"Resume"')
  })

  it('a heading has no focusable widget', async () => {
    const app = createMonitorsApp()
    const ref = refOf(await snap(app), 'heading "Sign in"')
    expect(await failure(app.call('focus', {ref}))).toEqual({
      message: `ext.tapir.focus: ref ${ref} has no focusable widget at or above it`,
      envelope: {type: 'not_found', suggestions: [], widget_path: ref},
    })
  })

  it('focus is gated: a disabled button is refused', async () => {
    const {app, yaml} = await signedIn()
    expect((await failure(app.call('focus', {ref: refOf(yaml, 'button "Export"')}))).envelope.type).toBe('disabled')
  })
})

describe('clear', () => {
  it('empties the field and reads it back after the settle', async () => {
    const app = createMonitorsApp()
    const email = refOf(await snap(app), 'textbox "Email"')
    await app.call('fill', {ref: email, text: 'ann@example.com', ...quiet})
    const result = await app.call('clear', {ref: email})
    expect(result).toEqual({
      ref: email,
      text: '',
      effect: {
        kind: 'text',
        verified: true,
        value: '',
        target: {matchKind: 'overlap', label: 'Email', rect: {x: 24, y: 160, w: 352, h: 56}},
      },
    })
    expect(await snap(app)).toContain(`- textbox "Email" [ref=${email}]`)
  })

  it('embeds the snapshot only with includeSnapshot', async () => {
    const app = createMonitorsApp()
    const email = refOf(await snap(app), 'textbox "Email"')
    expect((await app.call('clear', {ref: email, includeSnapshot: 'true'})).snapshot).toContain(`- textbox "Email" [ref=${email}]`)
  })

  it('refuses a control that is not a text field, like fill', async () => {
    const {app, yaml} = await onSettings()
    const ref = refOf(yaml, 'checkbox "Email alerts"')
    expect(await failure(app.call('clear', {ref}))).toEqual({
      message: `ref ${ref} is a checkbox, not a text field`,
      envelope: {type: 'unexpected', suggestions: [], widget_path: ref},
    })
    const button = refOf(yaml, 'button "Region"')
    expect((await failure(app.call('clear', {ref: button}))).message).toBe(`ref ${button} is a button, not a text field`)
  })

  it('runs the gate and refuses stale refs', async () => {
    const app = createMonitorsApp()
    expect((await failure(app.call('clear', {ref: 'e77'}))).envelope.type).toBe('not_found')
    expect((await failure(app.call('clear', {}))).envelope.type).toBe('missing_param')
  })
})
