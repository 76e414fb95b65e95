import {readFileSync} from 'node:fs'
import {join} from 'node:path'
import {beforeAll, describe, expect, it} from 'vitest'
import {refOf, type SimSession, withSimSession} from '../helpers/sim.js'

const snapOf = async (s: SimSession) => (await s.run(['tapir:snap'])).stdout

describe('pointer, keyboard, scroll and screenshot verbs against the sim', () => {
  const s = withSimSession({}, 'in-process')
  beforeAll(async () => {
    await s.run(['tapir:snap'])
  })

  it('focus, then blur says focus was held; a second blur says nothing had it', async () => {
    expect(await s.run(['tapir:focus', '--ref=e2'])).toMatchObject({exitCode: 0, stdout: '✓ Focused e2'})
    expect(await s.run(['tapir:blur'])).toMatchObject({exitCode: 0, stdout: '✓ Blurred the focused widget'})
    expect(await s.run(['tapir:blur'])).toMatchObject({exitCode: 0, stdout: '✓ Nothing had focus'})
  })

  it('press_key: Enter in the password field submits the form', async () => {
    await s.run(['tapir:fill', '--ref=e2', '--text=ada@example.com'])
    await s.run(['tapir:fill', '--ref=e3', '--text=hunter22'])
    expect(await s.run(['tapir:press_key', '--key=Enter'])).toMatchObject({exitCode: 0, stdout: '✓ Pressed Enter'})
    expect(JSON.parse((await s.run(['tapir:get_routes'])).stdout).uri).toBe('/monitors')
  })

  it('press_key with modifiers reaches a shortcut; an unknown modifier is refused before anything is pressed', async () => {
    await s.run(['tapir:navigate', '--route=/settings'])
    expect(await s.run(['tapir:press_key', '--key=S', '--modifiers=control'])).toMatchObject({exitCode: 0, stdout: '✓ Pressed control+S'})
    expect(await snapOf(s)).toContain('- text "Saved"')
    const bad = await s.run(['tapir:press_key', '--key=S', '--modifiers=hyper'])
    expect(bad.exitCode).toBe(3)
    expect(bad.stderr).toMatch(/^✗ .*hyper/)
    const call = s.sim.requests.findLast((request) => request.method === 'ext.tapir.press_key')!
    expect(call.params.modifiers).toBe('hyper')
  })

  it('reset_overlays clears the snack bar, and is idempotent', async () => {
    const first = JSON.parse((await s.run(['tapir:reset_overlays'])).stdout)
    expect(first.escaped || first.dismissTapped || first.popped > 0).toBe(true)
    expect(JSON.parse((await s.run(['tapir:reset_overlays'])).stdout)).toEqual({popped: 0, escaped: false, dismissTapped: false})
  })

  it('scroll moves the list, clamps at its end, and reports when nothing moved', async () => {
    await s.run(['tapir:navigate', '--route=/monitors'])
    const ref = refOf(await snapOf(s), /button "Queue"/)
    expect(await s.run(['tapir:scroll', `--ref=${ref}`, '--dy=200'])).toMatchObject({
      exitCode: 0,
      stdout: `✓ Scrolled around ${ref} (offset 0 → 200)`,
    })
    const far = JSON.parse((await s.run(['tapir:scroll', `--ref=${ref}`, '--pixels=5000', '--json'])).stdout)
    expect(far).toMatchObject({scrolled: true, finalOffset: 704, effect: {kind: 'scrollOffset', changed: true, before: 200, after: 704}})
    expect(await s.run(['tapir:scroll', `--ref=${ref}`])).toMatchObject({
      exitCode: 0,
      stdout: `✓ Nothing scrolled around ${ref} (already at the edge, or no Scrollable around it)`,
    })
    const back = JSON.parse((await s.run(['tapir:scroll', `--ref=${ref}`, '--direction=up', '--pixels=10000', '--json'])).stdout)
    expect(back).toMatchObject({finalOffset: 0})
  })

  it('scroll --intoView brings an off-screen row into view', async () => {
    const snapshot = await snapOf(s)
    const ref = refOf(snapshot, /button "Backup".*\[offscreen\]/)
    const result = JSON.parse((await s.run(['tapir:scroll', `--ref=${ref}`, '--intoView', '--json'])).stdout)
    expect(result).toMatchObject({scrolled: true, effect: {changed: true}})
    expect(await snapOf(s)).toMatch(new RegExp(`button "Backup" \\[ref=${ref}\\]$`, 'm'))
  })

  it('hover shows a tooltip', async () => {
    const ref = refOf(await snapOf(s), /button "New monitor"/)
    expect(await s.run(['tapir:hover', `--ref=${ref}`])).toMatchObject({exitCode: 0, stdout: `✓ Hovered ${ref}`})
    expect(await snapOf(s)).toContain('- text "Create a monitor"')
  })

  it('dblclick marks a row as favourite', async () => {
    await s.run(['tapir:scroll', '--direction=up', '--pixels=10000'])
    const ref = refOf(await snapOf(s), /button "Web"/)
    expect(await s.run(['tapir:dblclick', `--ref=${ref}`])).toMatchObject({exitCode: 0, stdout: `✓ Double-clicked ${ref}`})
    expect(await snapOf(s)).toContain('- button "Web ★"')
  })

  it('right_click opens the row menu, and dismiss_modals closes it', async () => {
    const ref = refOf(await snapOf(s), /button "DB"/)
    expect(JSON.parse((await s.run(['tapir:right_click', `--ref=${ref}`, '--json'])).stdout)).toMatchObject({ref, button: 'right'})
    expect(await snapOf(s)).toContain('- button "Duplicate"')
    expect((await s.run(['tapir:dismiss_modals'])).stdout).toBe('✓ Dismissed 1 modal(s)')
  })

  it('drag reorders rows', async () => {
    const snapshot = await snapOf(s)
    const api = refOf(snapshot, /button "API"/)
    const db = refOf(snapshot, /button "DB"/)
    expect(await s.run(['tapir:drag', `--startRef=${api}`, `--endRef=${db}`])).toMatchObject({
      exitCode: 0,
      stdout: `✓ Dragged ${api} to ${db}`,
    })
    const order = (await snapOf(s))
      .split('\n')
      .filter((line) => /button "(API|Web ★|DB|Queue)"/.test(line))
      .map((line) => /"([^"]+)"/.exec(line)![1])
    expect(order).toEqual(['Web ★', 'DB', 'API', 'Queue'])
  })

  it.each([['hover'], ['dblclick'], ['right_click'], ['triple_click']])(
    '%s goes through the actionability gate (exit 3 on a disabled button)',
    async (verb) => {
      const disabled = refOf(await snapOf(s), /button "Export"/)
      expect(await s.run([`tapir:${verb}`, `--ref=${disabled}`])).toMatchObject({
        exitCode: 3,
        stdout: '',
        stderr: `✗ Widget ref=${disabled} is not actionable: not enabled`,
      })
    },
  )

  it('drag refuses an unknown ref on either end, exit 3', async () => {
    const api = refOf(await snapOf(s), /button "API"/)
    const result = await s.run(['tapir:drag', '--startRef=e999', `--endRef=${api}`, '--json'])
    expect(result.exitCode).toBe(3)
    expect(JSON.parse(result.stdout).error.envelope.type).toBe('not_found')
    expect((await s.run(['tapir:drag', `--startRef=${api}`, '--endRef=e999'])).exitCode).toBe(3)
  })

  it('triple_click on a text field focuses it and selects its text', async () => {
    await s.run(['tapir:navigate', '--route=/settings'])
    const field = refOf(await snapOf(s), /textbox "Nickname"/)
    expect(await s.run(['tapir:triple_click', `--ref=${field}`])).toMatchObject({exitCode: 0, stdout: `✓ Triple-clicked ${field}`})
    expect(JSON.parse((await s.run(['tapir:triple_click', `--ref=${field}`, '--json'])).stdout)).toMatchObject({ref: field, clickCount: 3})
    await s.run(['tapir:navigate', '--route=/monitors'])
  })

  it('screenshot writes a PNG of the whole screen, and of one widget with --ref', async () => {
    const whole = join(s.dir, 'screen.png')
    const result = await s.run(['tapir:screenshot', `--output=${whole}`])
    expect(result.exitCode, result.stderr).toBe(0)
    expect(result.stdout).toMatch(new RegExp(`^✓ Wrote (\\d+) bytes \\([\\d.]+ KB, png\\) to ${whole}$`))
    const png = readFileSync(whole)
    expect(png.subarray(1, 4).toString()).toBe('PNG')
    expect([png.readUInt32BE(16), png.readUInt32BE(20)]).toEqual([800, 1600])
    const heading = refOf(await snapOf(s), /heading "Monitors"/)
    const part = join(s.dir, 'heading.jpg')
    const clipped = await s.run(['tapir:screenshot', `--output=${part}`, `--ref=${heading}`, '--json'])
    expect(JSON.parse(clipped.stdout)).toMatchObject({path: part, format: 'jpeg'})
    const jpeg = readFileSync(part)
    expect([jpeg[0], jpeg[1]]).toEqual([0xff, 0xd8])
  })

  it('screenshot keeps the warnings block of an app not producing frames: the banner, and warnings in --json', async () => {
    s.sim.app.setLifecycle('detached')
    try {
      const file = join(s.dir, 'hidden.png')
      const result = await s.run(['tapir:screenshot', `--output=${file}`])
      expect(result.exitCode).toBe(0)
      expect(result.stdout).toMatch(/^✓ Wrote \d+ bytes/)
      expect(result.stderr).toMatch(/^⚠ The app is not producing frames \(lifecycle: detached\)/)
      const json = await s.run(['tapir:screenshot', `--output=${file}`, '--json'])
      expect(JSON.parse(json.stdout)).toMatchObject({
        path: file,
        format: 'png',
        warnings: {framesEnabled: false, lifecycleState: 'detached'},
      })
      expect(json.stderr).toMatch(/^⚠ The app is not producing frames/)
    } finally {
      s.sim.app.setLifecycle('resumed')
    }
  })

  it("an app error's suggestions end its ✗ line, as --json carries them; a stale handle says how to get a fresh one", async () => {
    const typo = await s.run(['tapir:press_key', '--key=Entr'])
    expect(typo.exitCode).toBe(3)
    expect(typo.stderr).toMatch(/^✗ ext\.tapir\.press_key: unknown key "Entr"; .* or one letter or digit\. Did you mean: Enter, End\?$/)
    const json = await s.run(['tapir:press_key', '--key=Entr', '--json'])
    expect(JSON.parse(json.stdout).error.envelope.suggestions).toEqual(['Enter', 'End'])

    await s.run(['tapir:navigate', '--route=/settings'])
    const handle = JSON.parse((await s.run(['tapir:find', '--text=Sync now'])).stdout).ref
    await s.run(['tapir:navigate', '--route=/monitors'])
    const stale = await s.run(['tapir:tap', `--ref=${handle}`])
    expect(stale).toMatchObject({
      exitCode: 3,
      stderr: `✗ Query handle ref=${handle} is stale: no live match for stored predicates. Run tapir:snap (or tapir:find again) for a fresh ref.`,
    })
  })

  it('close_app ends the app: later calls fail', async () => {
    expect(await s.run(['tapir:close_app'])).toMatchObject({exitCode: 0, stdout: '✓ Asked the app to close'})
    expect((await s.run(['tapir:snap'])).exitCode).toBe(3)
  })
})

describe('close_app on a web app', () => {
  const s = withSimSession({mode: 'dwds'}, 'in-process')

  it('only asks the browser to close the tab, which keeps it: the app and its debug service stay up', async () => {
    expect(await s.run(['tapir:close_app'])).toMatchObject({exitCode: 0, stdout: '✓ Asked the app to close'})
    expect(await s.run(['tapir:snap', '--interactiveOnly'])).toMatchObject({
      exitCode: 0,
      stdout: expect.stringContaining('button "Sign in"'),
    })
  })
})
