import {describe, expect, it} from 'vitest'
import {createMonitorsApp} from '../../src/sim/app/index.js'
import {failure, onSettings, quiet, refOf, snap} from './app-helpers.js'

describe('fill and type', () => {
  it('fill writes the field and reads the controller back', async () => {
    const app = createMonitorsApp()
    const ref = refOf(await snap(app), 'textbox "Email"')
    const result = await app.call('fill', {ref, text: 'ann@example.com'})
    expect(result).toMatchObject({
      ref,
      text: 'ann@example.com',
      filled: true,
      effect: {
        kind: 'text',
        verified: true,
        value: 'ann@example.com',
        target: {matchKind: 'overlap', label: 'Email', rect: {x: 24, y: 160, w: 352, h: 56}},
      },
    })
    expect(result.snapshot).toContain(`- textbox "Email": "ann@example.com" [ref=${ref}]`)
  })

  it('fill replaces existing content and "" clears it', async () => {
    const app = createMonitorsApp()
    const ref = refOf(await snap(app), 'textbox "Email"')
    await app.call('fill', {ref, text: 'first', ...quiet})
    expect((await app.call('fill', {ref, text: 'second', ...quiet})).effect).toMatchObject({value: 'second'})
    expect((await app.call('fill', {ref, text: '', ...quiet})).effect).toMatchObject({verified: true, value: ''})
  })

  it('a number field that rejects letters reports verified false', async () => {
    const {app, yaml} = await onSettings()
    const ref = refOf(yaml, 'textbox "Check interval"')
    expect(yaml).toContain(`- textbox "Check interval": "60" [ref=${ref}]`)
    expect((await app.call('fill', {ref, text: 'abc', ...quiet})).effect).toMatchObject({kind: 'text', verified: false, value: ''})
    expect((await app.call('fill', {ref, text: '120', ...quiet})).effect).toMatchObject({verified: true, value: '120'})
  })

  it('a controller that rewrites the text reports what it holds', async () => {
    const {app, yaml} = await onSettings()
    const result = await app.call('type', {ref: refOf(yaml, 'textbox "Nickname"'), text: 'alice', ...quiet})
    expect(result).toEqual({
      text: 'alice',
      effect: {
        kind: 'text',
        verified: false,
        value: 'ALICE',
        target: {matchKind: 'overlap', label: 'Nickname', rect: {x: 16, y: 344, w: 368, h: 56}},
      },
    })
  })

  it('a key handle writes its own field (matchKind element)', async () => {
    const app = createMonitorsApp()
    const found = await app.call('find', {key: 'password'})
    const result = await app.call('fill', {ref: found.ref as string, text: 'hunter2', ...quiet})
    expect(result.effect).toMatchObject({verified: true, target: {matchKind: 'element', label: 'Password'}})
    expect(await snap(app)).toContain('- textbox "Password": "•••••••"')
  })

  it('a handle on plain text writes the nearest field', async () => {
    const app = createMonitorsApp()
    await app.call('tap', {ref: refOf(await snap(app), 'button "Sign in"'), ...quiet})
    const error = await app.call('find', {text: 'Enter your email and password'})
    const result = await app.call('type', {ref: error.ref as string, text: 'x', ...quiet})
    expect(result.effect).toMatchObject({target: {matchKind: 'nearest', label: 'Password'}})
  })

  it('fill refuses an interactive control that is not a text field', async () => {
    const {app, yaml} = await onSettings()
    const button = refOf(yaml, 'button "Region"')
    expect(await failure(app.call('fill', {ref: button, text: 'x'}), 'any')).toEqual({
      message: `ref ${button} is a button, not a text field`,
      envelope: {type: 'unexpected', suggestions: [], widget_path: button},
    })
    expect((await failure(app.call('fill', {ref: refOf(yaml, 'button "Dark mode"'), text: 'x'}), 'any')).message).toContain(
      'is a switch, not a text field',
    )
    expect((await failure(app.call('fill', {ref: refOf(yaml, 'checkbox "Email alerts"'), text: 'x'}), 'any')).message).toContain(
      'is a checkbox, not a text field',
    )
  })

  it('fill needs ref and text (the key must be present, even empty)', async () => {
    const app = createMonitorsApp()
    await snap(app)
    expect((await failure(app.call('fill', {text: 'x'}), 'any')).envelope.type).toBe('missing_param')
    expect((await failure(app.call('fill', {ref: 'e2'}), 'any')).message).toBe('ext.tapir.fill: missing required param "text"')
  })

  it('the gate runs first: a ref no scroll can reveal is refused like a tap', async () => {
    const {app, yaml} = await onSettings()
    const sync = refOf(yaml, 'button "Sync now"')
    expect((await failure(app.call('type', {ref: sync, text: 'x'}), 'any')).envelope.type).toBe('off_viewport')
  })
})

describe('set_checkbox', () => {
  it('taps a checkbox only when its state differs, and reads the state back', async () => {
    const {app, yaml} = await onSettings()
    const ref = refOf(yaml, 'checkbox "Email alerts"')
    expect(await app.call('set_checkbox', {ref, value: 'true', ...quiet})).toEqual({
      ref,
      previousValue: false,
      value: true,
      toggled: true,
      effect: {kind: 'checked', verified: true, before: false, after: true},
    })
    expect(await app.call('set_checkbox', {ref, value: 'true', ...quiet})).toMatchObject({
      previousValue: true,
      toggled: false,
      effect: {verified: true},
    })
    expect(await app.call('set_checkbox', {ref, value: '0', ...quiet})).toMatchObject({value: false, toggled: true, effect: {after: false}})
  })

  it('reads a switch from its toggled flag', async () => {
    const {app, yaml} = await onSettings()
    const result = await app.call('set_checkbox', {ref: refOf(yaml, 'button "Dark mode"'), value: 'true', ...quiet})
    expect(result.effect).toEqual({kind: 'checked', verified: true, before: false, after: true})
  })

  it('misses a control that is offscreen: no gate, no scroll, verified false', async () => {
    const {app, yaml} = await onSettings()
    const result = await app.call('set_checkbox', {ref: refOf(yaml, 'checkbox "Accept beta terms"'), value: 'true', ...quiet})
    expect(result).toMatchObject({toggled: true, effect: {kind: 'checked', verified: false, before: false, after: false}})
  })

  it('case 2: a node without a flag reads its one flagged descendant', async () => {
    const {app, yaml} = await onSettings()
    expect(yaml).toMatch(/^- text "Notifications"\n {2}- checkbox "Email alerts" \[ref=e\d+\]$/m)
    const group = await app.call('find', {semanticsLabel: 'Notifications'})
    const result = await app.call('set_checkbox', {ref: group.ref as string, value: 'true', ...quiet})
    expect(result.effect).toEqual({kind: 'checked', verified: true, before: false, after: true})
  })

  it('case 3: an element without a node of its own reads the nearest node above', async () => {
    const {app} = await onSettings()
    const label = await app.call('find', {key: 'darkModeLabel'})
    const result = await app.call('set_checkbox', {ref: label.ref as string, value: 'true', ...quiet})
    expect(result.effect).toEqual({kind: 'checked', verified: true, before: false, after: true})
  })

  it('refuses a control with no checked or toggled state', async () => {
    const {app, yaml} = await onSettings()
    const region = refOf(yaml, 'button "Region"')
    expect(await failure(app.call('set_checkbox', {ref: region, value: 'true'}), 'any')).toEqual({
      message: `ext.tapir.set_checkbox: ref ${region} has no checked or toggled state`,
      envelope: {type: 'not_found', suggestions: [], widget_path: region},
    })
    expect((await failure(app.call('set_checkbox', {ref: region}), 'any')).envelope.type).toBe('missing_param')
  })
})

describe('select_option', () => {
  it('hands the value to onChanged without opening the menu, and reads the dropdown back', async () => {
    const {app, yaml} = await onSettings()
    const ref = refOf(yaml, 'button "Region"')
    expect(await app.call('select_option', {ref, value: 'us'})).toEqual({
      selected: true,
      value: 'us',
      effect: {kind: 'selected', verified: true, value: 'us'},
    })
    expect(await snap(app)).toContain(`- button "Region": "us" [ref=${ref}]`)
  })

  it('reports verified false when the parent refuses the value', async () => {
    const {app, yaml} = await onSettings()
    const result = await app.call('select_option', {ref: refOf(yaml, 'button "Region"'), value: 'asia'})
    expect(result).toEqual({selected: true, value: 'asia', effect: {kind: 'selected', verified: false, value: 'eu'}})
  })

  it('refuses a ref with no dropdown at or below it, naming the dropdown refs', async () => {
    const {app, yaml} = await onSettings()
    const error = await failure(app.call('select_option', {ref: refOf(yaml, 'button "Dark mode"'), value: 'us'}), 'any')
    expect(error.envelope).toMatchObject({type: 'not_found', suggestions: [refOf(yaml, 'button "Region"')]})
  })

  it('the menu route does the same through taps: asia is offered, picked, and refused', async () => {
    const {app, yaml} = await onSettings()
    await app.call('tap', {ref: refOf(yaml, 'button "Region"'), ...quiet})
    const menu = await snap(app)
    expect(menu).toMatch(/^- button "eu" \[ref=e\d+\]\n- button "us" \[ref=e\d+\]\n- button "asia" \[ref=e\d+\]\n$/)
    await app.call('tap', {ref: refOf(menu, 'button "asia"'), ...quiet})
    expect(await snap(app)).toContain('- button "Region": "eu"')
  })
})
