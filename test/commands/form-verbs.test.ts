import {afterAll, beforeAll, describe, expect, it} from 'vitest'
import {refOf, signIn, simSession, type SimSession} from '../helpers/sim.js'

describe('text and control verbs against the sim', () => {
  let s: SimSession
  let settings: string
  beforeAll(async () => {
    s = await simSession({}, 'in-process')
    await s.run(['tapir:snap'])
  })
  afterAll(async () => {
    expect(s.sim.violations).toEqual([])
    await s.close()
  })

  it('type replaces the text and reads it back', async () => {
    const result = await s.run(['tapir:type', '--ref=e2', '--text=ada@example.com', '--json'])
    expect(result.exitCode).toBe(0)
    expect(JSON.parse(result.stdout)).toMatchObject({
      text: 'ada@example.com',
      effect: {kind: 'text', verified: true, value: 'ada@example.com'},
    })
    expect(await s.run(['tapir:type', '--ref=e2', '--text=x'])).toMatchObject({exitCode: 0, stdout: '✓ Typed into e2', stderr: ''})
  })

  it('clear empties the field', async () => {
    expect(await s.run(['tapir:clear', '--ref=e2'])).toMatchObject({exitCode: 0, stdout: '✓ Cleared e2'})
    expect((await s.run(['tapir:snap', '--grep', 'Email'])).stdout).toContain('- textbox "Email" [ref=e2]')
  })

  it('fill refuses a button ref, exit 3', async () => {
    const result = await s.run(['tapir:fill', '--ref=e4', '--text=x'])
    expect(result).toMatchObject({
      exitCode: 3,
      stderr:
        '✗ ref e4 is a button, not a text field. fill types into a text field (a textbox in tapir:snap); to press this one, run tapir:tap.',
    })
  })

  it.each([
    [['tapir:fill', '--text=x'], '✗ Missing --ref=<eN|qN>. Run tapir:snap first to obtain refs.'],
    [['tapir:fill', '--ref=e2'], '✗ Missing --text=<value>. Provide the text to enter ("" clears).'],
    [['tapir:type', '--ref=e2'], '✗ Missing --text=<value>. Provide the text to enter ("" clears).'],
    [['tapir:select_option', '--ref=e2'], '✗ Missing --value=<string>.'],
    [['tapir:set_checkbox', '--ref=e2'], '✗ Provide --value as "true" or "false".'],
    [['tapir:press_key'], '✗ Missing --key=<name>.'],
    [['tapir:navigate'], '✗ Missing --route=<path>.'],
    [['tapir:navigate', '--route=settings'], '✗ --route must start with / (got "settings").'],
    [['tapir:drag', '--endRef=e2'], '✗ Missing --startRef=<eN>. Run tapir:snap first to obtain refs.'],
    [['tapir:drag', '--startRef=e2'], '✗ Missing --endRef=<eN>. Run tapir:snap first to obtain refs.'],
    [['tapir:evaluate'], '✗ Missing --expression=<dart expression>.'],
    [['tapir:perf_insight'], '✗ Missing --id=<In>. Take an id from tapir:perf_end.'],
    [['tapir:perf_trace'], '✗ Missing --out=<file>.'],
    [['tapir:screenshot'], '✗ Missing --output=<path>. Example: tapir:screenshot --output=./shot.jpg --format=jpeg'],
    [
      ['tapir:screenshot', '--output=x.png', '--rect=0,0,10,10'],
      '✗ --rect is relative to a widget, so it needs --ref. Omit both to capture the whole viewport.',
    ],
    [['tapir:screenshot', '--output=x.png', '--quality=101'], '✗ --quality must be at most 100 (got 101).'],
    [['tapir:wait'], '✗ Provide at least one condition: --text, --textGone, or --expression.'],
    [['tapir:wait_for_network_idle', '--pollIntervalMs=50'], '✗ --pollIntervalMs must be at least 100 (got 50).'],
    [['tapir:perf_begin', '--mode=timing', '--phases'], '✗ --phases profiles layout and paint, so it needs --mode set to attribution.'],
    [['tapir:scroll', '--intoView'], '✗ --intoView brings a widget into view, so it needs --ref (an eN ref).'],
    [['tapir:snap', '--timeout=abc'], '✗ Parsing --timeout: Expected an integer but received: abc. See `tapir tapir:snap --help`.'],
    [['tapir:snap', '--depth=deep'], '✗ Parsing --depth: Expected an integer but received: deep. See `tapir tapir:snap --help`.'],
    [['tapir:scroll', '--ref=e2', '--dx=far'], '✗ Parsing --dx: Expected a number but received: far. See `tapir tapir:scroll --help`.'],
    [['tapir:run', '--timeout=abc', 'snap'], '✗ Parsing --timeout: Expected an integer but received: abc. See `tapir tapir:run --help`.'],
  ])('%j is a usage error, exit 1, with nothing sent', async (args, message) => {
    const before = s.sim.requests.length
    expect(await s.run(args)).toMatchObject({exitCode: 1, stdout: '', stderr: message})
    expect(s.sim.requests.length).toBe(before)
  })

  describe('on /settings', () => {
    beforeAll(async () => {
      await signIn(s)
      await s.run(['tapir:navigate', '--route=/settings'])
      settings = (await s.run(['tapir:snap'])).stdout
    })

    it('a number field that rejects letters reads verified:false, with a warning', async () => {
      const ref = refOf(settings, /textbox "Check interval"/)
      const result = await s.run(['tapir:fill', `--ref=${ref}`, '--text=abc'])
      expect(result).toMatchObject({
        exitCode: 0,
        stdout: `✓ Filled ${ref}`,
        stderr: '⚠ The field holds "" after the settle, not the text sent.',
      })
      const json = JSON.parse((await s.run(['tapir:fill', `--ref=${ref}`, '--text=abc', '--json'])).stdout)
      expect(json.effect).toMatchObject({kind: 'text', verified: false, value: '', target: {matchKind: expect.any(String)}})
    })

    it('a strict run fails a fill the field changed, saying what it held (never for a ${env} value)', async () => {
      const ref = refOf(settings, /textbox "Nickname"/)
      const warned = await s.run(['tapir:fill', `--ref=${ref}`, '--text=grace'])
      expect(warned).toMatchObject({exitCode: 0, stderr: '⚠ The field holds "GRACE" after the settle, not the text sent.'})
      const strict = await s.run(['tapir:run', '--strict', `fill --ref=${ref} --text=grace`])
      expect(strict.exitCode).toBe(1)
      expect(strict.stderr).toContain(
        '✗ fill answered effect.verified: false (the field holds "GRACE", not the text sent), so a strict run fails it',
      )
      const secret = await s.run(['tapir:run', '--strict', `fill --ref=${ref} --text=\${env.NICK}`], {env: {NICK: 'grace'}})
      expect(secret.exitCode).toBe(1)
      expect(secret.stderr).toContain('✗ fill answered effect.verified: false, so a strict run fails it')
      expect(secret.stderr.split('\n').filter((line) => line.startsWith('✗ fill answered'))).toEqual([
        '✗ fill answered effect.verified: false, so a strict run fails it',
      ])
    })

    it('select_option sets the dropdown, and a refused value warns', async () => {
      const ref = refOf(settings, /button "Region"/)
      expect(await s.run(['tapir:select_option', `--ref=${ref}`, '--value=us'])).toMatchObject({
        exitCode: 0,
        stdout: `✓ Selected "us" on ${ref}`,
        stderr: '',
      })
      const refused = await s.run(['tapir:select_option', `--ref=${ref}`, '--value=asia'])
      expect(refused).toMatchObject({
        exitCode: 0,
        stdout: `✓ Sent "asia" to ${ref}`,
        stderr: '⚠ The dropdown holds "us" after the settle: its parent did not take the change.',
      })
      const notAnItem = await s.run(['tapir:select_option', `--ref=${ref}`, '--value=xx', '--json'])
      expect(JSON.parse(notAnItem.stdout)).toMatchObject({
        selected: true,
        value: 'xx',
        effect: {kind: 'selected', verified: false, value: 'us'},
      })
      expect(await s.run(['tapir:select_option', `--ref=${ref}`, '--value=xx'])).toMatchObject({
        exitCode: 0,
        stdout: `✓ Sent "xx" to ${ref}`,
        stderr: '⚠ The dropdown holds "us" after the settle: its parent did not take the change.',
      })
    })

    it('set_checkbox taps only when the state differs', async () => {
      const ref = refOf(settings, /checkbox "Email alerts"/)
      expect(await s.run(['tapir:set_checkbox', `--ref=${ref}`, '--value=true'])).toMatchObject({
        exitCode: 0,
        stdout: `✓ Checkbox ${ref} set to true`,
      })
      expect(await s.run(['tapir:set_checkbox', `--ref=${ref}`, '--value=true'])).toMatchObject({
        exitCode: 0,
        stdout: `✓ Checkbox ${ref} already true`,
      })
    })

    it('set_checkbox on an off-screen checkbox is not verified: exit 1, but 0 with --json or --includeSnapshot', async () => {
      const ref = refOf(settings, /checkbox "Accept beta terms"/)
      const plain = await s.run(['tapir:set_checkbox', `--ref=${ref}`, '--value=true'])
      expect(plain.exitCode).toBe(1)
      expect(plain.stderr).toBe(
        `✗ ${ref} still reads false after the tap, not true. It is off screen, so the tap missed it: scroll it into view with tapir:scroll, then retry.`,
      )
      const json = await s.run(['tapir:set_checkbox', `--ref=${ref}`, '--value=true', '--json'])
      expect(json.exitCode).toBe(0)
      expect(JSON.parse(json.stdout)).toMatchObject({effect: {kind: 'checked', verified: false}})
      const withSnapshot = await s.run(['tapir:set_checkbox', `--ref=${ref}`, '--value=true', '--includeSnapshot'])
      expect(withSnapshot.exitCode).toBe(0)
      expect(JSON.parse(withSnapshot.stdout)).toMatchObject({effect: {verified: false}, snapshot: expect.any(String)})
    })

    it('set_checkbox on a visible checkbox that did not take gives no off-screen hint', async () => {
      const ref = refOf(settings, /checkbox "Email alerts"/)
      const before = JSON.parse((await s.run(['tapir:set_checkbox', `--ref=${ref}`, '--value=true', '--json'])).stdout).value
      s.sim.app.setLifecycle('detached') // no frame is drawn, so the tapped control keeps reading its old state
      try {
        const result = await s.run(['tapir:set_checkbox', `--ref=${ref}`, `--value=${!before}`])
        expect(result.exitCode).toBe(1)
        const lines = result.stderr.split('\n')
        expect(lines[0]).toMatch(/^⚠ The app is not producing frames/)
        expect(lines[1]).toBe(`✗ ${ref} still reads ${before} after the tap, not ${!before}.`)
      } finally {
        s.sim.app.setLifecycle('resumed')
      }
    })
  })
})
