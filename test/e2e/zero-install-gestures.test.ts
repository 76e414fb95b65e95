import {afterAll, beforeAll, describe, expect, it} from 'vitest'
import {AppConnection} from '../../src/lib/vm/app-connection.js'
import {Deadline} from '../../src/lib/vm/deadline.js'
import {RpcError} from '../../src/lib/vm/rpc-error.js'
import {hoverEvent, popFocusedNavigator, secondaryClick} from '../../src/lib/zero/dart.js'
import {expectNoProcessLeft} from '../helpers/leftovers.js'
import {refOf, simSession, type SimSession} from '../helpers/sim.js'

expectNoProcessLeft()

// The gestures and controls beyond tap, drag, scroll and text on a debug app with no package
// (docs/zero-install.md): each acts through Flutter's own API and the screen shows it.

describe('zero-install gestures and controls on --package=none', () => {
  let s: SimSession
  const snap = async (): Promise<string> => {
    const result = await s.run(['tapir:snap'])
    expect(result).toMatchObject({exitCode: 0, stderr: ''})
    return result.stdout
  }

  beforeAll(async () => {
    s = await simSession({package: 'none'})
    const signIn = await snap()
    for (const [field, text] of [
      [/textbox "Email"/, 'ada@example.com'],
      [/textbox "Password"/, 'hunter22'],
    ] as const)
      expect((await s.run(['tapir:fill', `--ref=${refOf(signIn, field)}`, `--text=${text}`])).exitCode).toBe(0)
    expect((await s.run(['tapir:tap', `--ref=${refOf(signIn, /button "Sign in"/)}`])).exitCode).toBe(0)
  })
  afterAll(async () => {
    expect(s.sim.requests.filter((request) => /^ext\.(tapir|dusk)\./.test(request.method))).toEqual([])
    expect(s.sim.violations).toEqual([])
    await s.close()
  })

  it('dblclick: two taps inside kDoubleTapTimeout reach the row as a double tap, not as two taps', async () => {
    const monitors = await snap()
    expect(monitors).toContain('- heading "Monitors"')
    const row = refOf(monitors, /button "API"/)
    expect(await s.run(['tapir:dblclick', `--ref=${row}`])).toMatchObject({exitCode: 0, stdout: `✓ Double-clicked ${row}`, stderr: ''})
    const after = await snap()
    // The ★ toggled, and the row's tap (open the monitor) never ran.
    expect(after).toContain(`- button "API ★" [ref=${row}]`)
    expect(after).toContain('- heading "Monitors"')
  })

  it('triple_click: a double tap, then a third tap the double-tap recogniser holds until its timeout', async () => {
    const row = refOf(await snap(), /button "API ★"/)
    expect(await s.run(['tapir:triple_click', `--ref=${row}`])).toMatchObject({exitCode: 0, stderr: ''})
    const after = await snap()
    expect(after).toContain('- heading "API"')
  })

  it('navigate_back pops the route in front through NavigatorState.maybePop, and at the root pops nothing', async () => {
    expect(await s.run(['tapir:navigate_back'])).toMatchObject({exitCode: 0, stdout: '✓ Navigated back', stderr: ''})
    const monitors = await snap()
    expect(monitors).toContain('- heading "Monitors"')
    expect(monitors).toContain('- button "API" [ref=')
    const again = await s.run(['tapir:navigate_back'])
    expect(again).toMatchObject({exitCode: 0, stdout: '✓ Nothing to go back to (every Navigator is at its root)', stderr: ''})
    expect(await snap()).toContain('- heading "Monitors"')
  })

  it('a tapir:run step takes the same zero-install form: dblclick, then navigate_back at the root', async () => {
    const row = refOf(await snap(), /button "API"/)
    const run = await s.run(['tapir:run', `dblclick --ref=${row}`, 'navigate_back'])
    expect(run).toMatchObject({exitCode: 0, stderr: ''})
    expect(await snap()).toContain(`- button "API ★" [ref=${row}]`)
    expect(await s.run(['tapir:dblclick', `--ref=${row}`])).toMatchObject({exitCode: 0})
    expect(await snap()).toContain(`- button "API" [ref=${row}]`)
  })

  it('right_click: a secondary-button click opens the row menu; navigate_back closes it', async () => {
    const before = await snap()
    const row = refOf(before, /button "API"/)
    expect(await s.run(['tapir:right_click', `--ref=${row}`])).toMatchObject({exitCode: 0, stderr: ''})
    const menu = await snap()
    // The menu's route is modal: the page below leaves the semantics tree while it is open.
    expect(menu).toMatch(/^- button "Rename" \[ref=e\d+\]\n- button "Duplicate" \[ref=e\d+\]$/)
    expect(await s.run(['tapir:navigate_back'])).toMatchObject({exitCode: 0, stdout: '✓ Navigated back'})
    expect(await snap()).toBe(before)
  })

  it('hover: a PointerHoverEvent from a mouse shows the FAB tooltip', async () => {
    const before = await snap()
    expect(before).not.toContain('Create a monitor')
    const fab = refOf(before, /button "New monitor"/)
    expect(await s.run(['tapir:hover', `--ref=${fab}`])).toMatchObject({exitCode: 0, stderr: ''})
    expect(await snap()).toContain('Create a monitor')
  })

  it('focus taps a text field, blur unfocuses it, and focus on a button is refused naming tapir install', async () => {
    const settingsTab = refOf(await snap(), /button "Settings"/)
    expect((await s.run(['tapir:tap', `--ref=${settingsTab}`])).exitCode).toBe(0)
    const settings = await snap()
    const nickname = refOf(settings, /textbox "Nickname"/)
    const focused = await s.run(['tapir:focus', `--ref=${nickname}`, '--json'])
    expect(focused).toMatchObject({exitCode: 0, stderr: ''})
    // Read back from the node's isFocused flag in the semantics tree.
    expect(JSON.parse(focused.stdout)).toEqual({ref: nickname, focused: true})
    const blurred = await s.run(['tapir:blur'])
    expect(blurred).toMatchObject({exitCode: 0, stdout: '✓ Blurred the focused widget', stderr: ''})
    expect(await s.run(['tapir:blur'])).toMatchObject({exitCode: 0, stdout: '✓ Nothing had focus'})
    const onButton = await s.run(['tapir:focus', `--ref=${refOf(settings, /"Region"/)}`])
    expect(onButton).toMatchObject({exitCode: 1, stdout: ''})
    expect(onButton.stderr.trim().split('\n')).toHaveLength(1)
    expect(onButton.stderr).toMatch(/zero-install focus reaches only a text field .*run tapir install/)
  })

  it('set_checkbox taps the checkbox only when its checked flag differs, and reads the flag back', async () => {
    const before = await snap()
    const email = refOf(before, /checkbox "Email alerts"/)
    const first = await s.run(['tapir:set_checkbox', `--ref=${email}`, '--value=true'])
    expect(first).toMatchObject({exitCode: 0, stderr: ''})
    const set = await s.run(['tapir:set_checkbox', `--ref=${email}`, '--value=false', '--json'])
    expect(set).toMatchObject({exitCode: 0, stderr: ''})
    expect(JSON.parse(set.stdout)).toEqual({
      ref: email,
      previousValue: true,
      value: false,
      toggled: true,
      effect: {kind: 'checked', verified: true, before: true, after: false},
    })
    const again = await s.run(['tapir:set_checkbox', `--ref=${email}`, '--value=false'])
    expect(again).toMatchObject({exitCode: 0, stdout: `✓ Checkbox ${email} already false`, stderr: ''})
    const notACheckbox = await s.run(['tapir:set_checkbox', `--ref=${refOf(before, /button "Region"/)}`, '--value=true'])
    expect(notACheckbox).toMatchObject({exitCode: 3, stdout: ''})
    expect(notACheckbox.stderr).toMatch(/has no checked or toggled state in the semantics tree/)
  })

  it('select_option opens the dropdown and taps the item, then reads the value back', async () => {
    const settings = await snap()
    const region = refOf(settings, /button "Region"/)
    const current = /button "Region": "([^"]+)"/.exec(settings)?.[1]
    const wanted = current === 'eu' ? 'us' : 'eu'
    const selected = await s.run(['tapir:select_option', `--ref=${region}`, `--value=${wanted}`])
    expect(selected).toMatchObject({exitCode: 0, stdout: `✓ Selected "${wanted}" on ${region}`, stderr: ''})
    expect(await snap()).toContain(`- button "Region": "${wanted}" [ref=${region}]`)
    // The plan offers no asia: the item is tapped, the parent keeps its value, and the read-back says so.
    const refusedByParent = await s.run(['tapir:select_option', `--ref=${region}`, '--value=asia'])
    expect(refusedByParent).toMatchObject({
      exitCode: 0,
      stdout: `✓ Sent "asia" to ${region}`,
      stderr: `⚠ The dropdown holds "${wanted}" after the settle: its parent did not take the change.`,
    })
    const missing = await s.run(['tapir:select_option', `--ref=${region}`, '--value=Atlantis'])
    expect(missing).toMatchObject({exitCode: 3, stdout: ''})
    expect(missing.stderr).toMatch(/No option "Atlantis" in the menu .* it was closed again/)
    const heading = await s.run(['tapir:select_option', `--ref=${refOf(settings, /heading "Settings"/)}`, '--value=eu'])
    expect(heading).toMatchObject({exitCode: 3, stdout: ''})
    expect(heading.stderr).toMatch(/^✗ A tap on e\d+ opened no menu: pass the ref of a dropdown\.$/)
    expect(await snap()).toContain(`- button "Region": "${wanted}" [ref=${region}]`)
  })

  it('refuses press_key, navigate, get_routes, dismiss_modals, hot_reload_and_snap and expect in one line naming tapir install', async () => {
    for (const args of [
      ['tapir:press_key', '--key=Enter'],
      ['tapir:navigate', '--route=/settings'],
      ['tapir:get_routes'],
      ['tapir:dismiss_modals'],
      ['tapir:hot_reload_and_snap'],
      ['tapir:expect', '--text=Settings'],
    ]) {
      const refused = await s.run(args)
      expect(refused, args[0]).toMatchObject({exitCode: 1, stdout: ''})
      expect(refused.stderr.trim().split('\n'), args[0]).toHaveLength(1)
      expect(refused.stderr).toMatch(new RegExp(`^✗ ${args[0]} has no zero-install form: .*; run tapir install to add the package\\.`))
    }
  })

  it('a tap and a right click each reach the app as one evaluate, so no compile holds the finger down', async () => {
    // Each evaluate is compiled by the app's expression compiler first (hundreds of ms, more on the
    // web): a down and an up in two evaluates would hold the pointer down for that long, past
    // kLongPressTimeout (gestures/constants.dart, 500 ms) on a slow compile, and a tap would be a
    // long press. One cascade on GestureBinding.instance delivers them back to back.
    const sent = () => s.sim.requests.filter((request) => request.method === 'evaluate').map((request) => String(request.params.expression))
    const heading = refOf(await snap(), /heading "[^"]+"/)
    for (const verb of ['tapir:tap', 'tapir:right_click']) {
      const before = sent().length
      expect(await s.run([verb, `--ref=${heading}`]), verb).toMatchObject({exitCode: 0, stderr: ''})
      const gestures = sent()
        .slice(before)
        .filter((expression) => expression.includes('handlePointerEvent'))
      expect(gestures, verb).toHaveLength(1)
      expect(gestures[0], verb).toMatch(
        /^GestureBinding\.instance\.\.handlePointerEvent\(PointerDownEvent\(.*\)\)\.\.handlePointerEvent\(PointerUpEvent\(.*\)\)$/,
      )
    }
  })

  it("the sim's compiler refuses tapir's hover and back expressions with a wrong named argument", async () => {
    const app = await AppConnection.open(s.sim.wsUri, 5000)
    try {
      const refused = async (library: string, source: string, message: RegExp) =>
        expect(app.evaluateInLibrary(library, source, new Deadline(5000))).rejects.toSatisfy(
          (error) => error instanceof RpcError && error.code === 113 && message.test(error.details ?? ''),
        )
      const hover = hoverEvent(10, 10)
      await refused(hover.library, hover.source.replace('device:', 'deviceId:'), /No named parameter with the name 'deviceId'\./)
      // A hover carries no pressure: PointerHoverEvent's constructor passes 0.0 itself.
      await refused(
        hover.library,
        hover.source.replace('position:', 'pressure: 1.0, position:'),
        /No named parameter with the name 'pressure'\./,
      )
      await refused(
        popFocusedNavigator.library,
        popFocusedNavigator.source.replace('maybePop()', 'maybePop(result: 1)'),
        /No named parameter with the name 'result'\./,
      )
      // A named argument given twice is the front end's DuplicatedNamedArgument (dart-lang/sdk
      // pkg/front_end/lib/src/codes/cfe_codes_generated.dart), never the last one silently winning.
      const right = secondaryClick(10, 10)
      await refused(
        right.library,
        right.source.replace('buttons: kSecondaryButton', 'buttons: kSecondaryButton, buttons: kPrimaryButton'),
        /1:\d+: Error: Duplicated named argument 'buttons'\./,
      )
      expect((await app.evaluateInLibrary(hover.library, hover.source, new Deadline(5000))).kind).toBe('Null')
    } finally {
      app.client.close()
    }
  })
})
