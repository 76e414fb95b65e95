import {existsSync, readFileSync} from 'node:fs'
import {join} from 'node:path'
import {afterAll, beforeAll, beforeEach, describe, expect, it} from 'vitest'
import {tapir, tempDir} from '../helpers/cli.js'
import {expectNoProcessLeft} from '../helpers/leftovers.js'
import {mcpClient} from '../helpers/mcp.js'
import {refOf, simSession, type SimSession} from '../helpers/sim.js'

expectNoProcessLeft()

/** The ext.dusk.* calls the sim received since `from`, with their params less the isolate id. */
function duskCalls(s: SimSession, from = 0): Array<{method: string; params: Record<string, unknown>}> {
  return s.sim.requests
    .slice(from)
    .filter((request) => request.method.startsWith('ext.'))
    .map(({method, params}) => {
      const {isolateId: _isolateId, ...rest} = params
      return {method, params: rest}
    })
}

/** Runs one CLI call and returns it with the ext.* calls it made. */
async function traced(s: SimSession, args: string[]) {
  const from = s.sim.requests.length
  const result = await s.run(args)
  return {...result, calls: duskCalls(s, from)}
}

const DUSK_REFUSAL = /^✗ .* the app runs Dusk 0\.0\.1.*$/

/** What ext_pointer.dart's and aiTestTypeHandler's handlers read besides the ref: tapir sends the CLI's defaults. */
const GATED = {includeSnapshot: 'false', checkStable: 'true', checkReceivesEvents: 'true'}

describe('an app on Dusk 0.0.1 (ext.dusk.* only), from the spawned CLI', () => {
  let s: SimSession
  beforeAll(async () => {
    s = await simSession({package: 'dusk'})
  })
  afterAll(async () => {
    // Nothing went out under ext.tapir.*, and every ext.dusk.* call carried only 0.0.1's params, as strings.
    expect(s.sim.requests.filter((request) => request.method.startsWith('ext.tapir.'))).toEqual([])
    expect(s.sim.violations).toEqual([])
    await s.close()
  })

  it('snap prints the YAML; interactiveOnly and grep are done in tapir, never sent', async () => {
    const snap = await traced(s, ['tapir:snap'])
    expect(snap).toMatchObject({exitCode: 0, stderr: ''})
    expect(snap.stdout).toContain('- button "Sign in" [ref=e4]')
    expect(snap.calls).toEqual([{method: 'ext.dusk.snap', params: {}}])
    const filtered = await traced(s, ['tapir:snap', '--interactiveOnly', '--grep=^Sign', '--depth=3'])
    expect(filtered).toMatchObject({exitCode: 0, stdout: '- heading "Sign in" [ref=e1]\n- button "Sign in" [ref=e4]', stderr: ''})
    expect(filtered.calls).toEqual([{method: 'ext.dusk.snap', params: {depth: '3'}}])
    const within = await s.run(['tapir:snap', '--within=e2'])
    expect(within).toMatchObject({exitCode: 0, stdout: '- textbox "Email" [ref=e2]\n  typeable: true'})
  })

  it('type, clear, focus, blur and press_key (with modifiers) reach their ext.dusk.* methods with string params', async () => {
    const type = await traced(s, ['tapir:type', '--ref=e2', '--text=ada@example.com'])
    expect(type).toMatchObject({exitCode: 0, stdout: '✓ Typed into e2', stderr: ''})
    expect(type.calls).toEqual([{method: 'ext.dusk.type', params: {ref: 'e2', text: 'ada@example.com', ...GATED}}])
    const clear = await traced(s, ['tapir:clear', '--ref=e2'])
    expect(clear).toMatchObject({exitCode: 0, stdout: '✓ Cleared e2'})
    expect(clear.calls).toEqual([{method: 'ext.dusk.clear', params: {ref: 'e2', includeSnapshot: 'false'}}])
    const focus = await traced(s, ['tapir:focus', '--ref=e3', '--includeSnapshot'])
    expect(focus.exitCode).toBe(0)
    expect(JSON.parse(focus.stdout)).toMatchObject({ref: 'e3', focused: true, snapshot: expect.stringContaining('[ref=e3]')})
    expect(focus.calls).toEqual([{method: 'ext.dusk.focus', params: {ref: 'e3', includeSnapshot: 'true'}}])
    const key = await traced(s, ['tapir:press_key', '--key=S', '--modifiers=ctrl,shift'])
    expect(key).toMatchObject({exitCode: 0, stdout: '✓ Pressed ctrl+shift+S'})
    expect(key.calls).toEqual([{method: 'ext.dusk.press_key', params: {key: 'S', modifiers: 'control,shift', includeSnapshot: 'false'}}])
    const blur = await traced(s, ['tapir:blur'])
    expect(blur).toMatchObject({exitCode: 0, stdout: '✓ Blurred the focused widget'})
    expect(blur.calls).toEqual([{method: 'ext.dusk.blur', params: {includeSnapshot: 'false'}}])
  })

  it('tap --ref drives ext.dusk.tap; --until is a wait_for tapir sends after it', async () => {
    const tap = await traced(s, ['tapir:tap', '--ref=e4'])
    expect(tap).toMatchObject({exitCode: 0, stdout: '✓ Tapped e4', stderr: ''})
    expect(tap.calls).toEqual([{method: 'ext.dusk.tap', params: {ref: 'e4', ...GATED}}])
    const until = await traced(s, ['tapir:tap', '--ref=e4', '--until=Sign in', '--untilTimeoutMs=800'])
    expect(until.exitCode).toBe(0)
    expect(JSON.parse(until.stdout)).toEqual({ref: 'e4', untilMatched: true})
    expect(until.calls).toEqual([
      {method: 'ext.dusk.tap', params: {ref: 'e4', ...GATED}},
      {method: 'ext.dusk.wait_for', params: {text: 'Sign in', timeoutMs: '800'}},
    ])
  })

  it('find, observe, get_routes, console and exceptions print what the app returned', async () => {
    const find = await traced(s, ['tapir:find', '--text=Email'])
    expect(JSON.parse(find.stdout)).toEqual({ref: 'q1', matched: true})
    expect(find.calls).toEqual([{method: 'ext.dusk.find', params: {text: 'Email'}}])
    const observe = await traced(s, ['tapir:observe', '--roles=button', '--limit=1'])
    expect(JSON.parse(observe.stdout).candidates).toHaveLength(1)
    expect(observe.calls).toEqual([{method: 'ext.dusk.observe', params: {roles: 'button', limit: '1'}}])
    expect(await s.run(['tapir:get_routes'])).toMatchObject({exitCode: 0, stdout: '{"location":"","title":""}'})
    const console = await traced(s, ['tapir:console', '--limit=5', '--minLevel=WARNING'])
    expect(JSON.parse(console.stdout).entries.length).toBeGreaterThan(0)
    expect(console.calls).toEqual([{method: 'ext.dusk.console', params: {limit: '5', minLevel: 'WARNING'}}])
    const exceptions = await traced(s, ['tapir:exceptions', '--since=2000-01-01T00:00:00Z'])
    expect(JSON.parse(exceptions.stdout)).toEqual({entries: []})
    expect(exceptions.calls).toEqual([{method: 'ext.dusk.exceptions', params: {limit: '20'}}])
  })

  it('evaluate goes through ext.dusk.evaluate (the Tinker bridge), not the VM evaluate', async () => {
    const from = s.sim.requests.length
    expect(await s.run(['tapir:evaluate', '--expression=1 + 2'])).toMatchObject({exitCode: 0, stdout: '3', stderr: ''})
    expect(s.sim.requests.slice(from).map((request) => request.method)).not.toContain('evaluate')
    expect(duskCalls(s, from)).toEqual([{method: 'ext.dusk.evaluate', params: {expression: '1 + 2'}}])
  })

  it('wait: a match exits 0; the timeout 0.0.1 answers as a result (matched: false) exits 1', async () => {
    expect(await s.run(['tapir:wait', '--text=Sign in', '--timeoutMs=500'])).toMatchObject({
      exitCode: 0,
      stdout: expect.stringMatching(/^✓ Condition matched after \d+ ms$/),
    })
    const timeout = await traced(s, ['tapir:wait', '--text=Nowhere', '--timeoutMs=300'])
    expect(timeout).toMatchObject({exitCode: 1, stdout: '', stderr: expect.stringMatching(/^✗ Condition did not match within the timeout/)})
    expect(timeout.calls).toEqual([{method: 'ext.dusk.wait_for', params: {text: 'Nowhere', timeoutMs: '300'}}])
    const json = await s.run(['tapir:wait', '--text=Nowhere', '--timeoutMs=300', '--json'])
    expect(json.exitCode).toBe(1)
    expect(JSON.parse(json.stdout)).toEqual({matched: false, reason: 'timeout'})
    const idle = await traced(s, ['tapir:wait_for_network_idle', '--timeoutMs=2000', '--idleMs=100'])
    expect(idle).toMatchObject({exitCode: 0, stdout: expect.stringMatching(/^✓ Network idle/)})
    expect(idle.calls).toEqual([
      {method: 'ext.dusk.wait_for_network_idle', params: {timeoutMs: '2000', idleMs: '100', pollIntervalMs: '200'}},
    ])
  })

  it('screenshot writes the image 0.0.1 sends', async () => {
    const dir = tempDir()
    try {
      const output = join(dir.path, 'shot.png')
      const shot = await traced(s, ['tapir:screenshot', `--output=${output}`])
      expect(shot).toMatchObject({exitCode: 0, stdout: expect.stringMatching(/^✓ Wrote \d+ bytes .*png\) to /)})
      expect(readFileSync(output).subarray(1, 4).toString()).toBe('PNG')
      expect(shot.calls).toEqual([{method: 'ext.dusk.screenshot', params: {format: 'png', quality: '70'}}])
    } finally {
      dir.remove()
    }
  })

  describe('on /monitors', () => {
    let monitors: string
    beforeEach(async () => {
      expect(await traced(s, ['tapir:navigate', '--route=/monitors'])).toMatchObject({
        exitCode: 0,
        stdout: '✓ Navigated to /monitors',
        calls: [{method: 'ext.dusk.navigate', params: {route: '/monitors', includeSnapshot: 'false'}}],
      })
      monitors = (await s.run(['tapir:snap'])).stdout
    })

    it('hover, dblclick, right_click, triple_click, dismiss_modals', async () => {
      const api = refOf(monitors, /button "API/)
      expect(await traced(s, ['tapir:hover', `--ref=${api}`])).toMatchObject({
        exitCode: 0,
        calls: [{method: 'ext.dusk.hover', params: {ref: api, ...GATED}}],
      })
      expect(await traced(s, ['tapir:dblclick', `--ref=${api}`])).toMatchObject({
        exitCode: 0,
        calls: [{method: 'ext.dusk.dblclick', params: {ref: api, ...GATED}}],
      })
      const right = await traced(s, ['tapir:right_click', `--ref=${api}`])
      expect(right).toMatchObject({exitCode: 0, stdout: `✓ Right-clicked ${api}`})
      expect(right.calls).toEqual([
        {method: 'ext.dusk.right_click', params: {ref: api, includeSnapshot: 'false', checkStable: 'true', checkReceivesEvents: 'true'}},
      ])
      expect(await traced(s, ['tapir:dismiss_modals'])).toMatchObject({
        exitCode: 0,
        stdout: '✓ Dismissed 1 modal(s)',
        calls: [{method: 'ext.dusk.dismiss_modals', params: {}}],
      })
      const fresh = (await s.run(['tapir:snap'])).stdout
      const web = refOf(fresh, /button "Web/)
      expect(await traced(s, ['tapir:triple_click', `--ref=${web}`, '--no-checkStable'])).toMatchObject({
        exitCode: 0,
        calls: [
          {
            method: 'ext.dusk.triple_click',
            params: {ref: web, includeSnapshot: 'false', checkStable: 'false', checkReceivesEvents: 'true'},
          },
        ],
      })
    })

    it('a gate refusal from the app exits 3 with its message', async () => {
      const covered = refOf(monitors, /button "Pause" \[ref=e\d+\] \[occluded\]/)
      const tap = await s.run(['tapir:tap', `--ref=${covered}`])
      expect(tap).toMatchObject({
        exitCode: 3,
        stdout: '',
        stderr: `✗ Widget ref=${covered} is not actionable: obscured by other widget (top=FloatingActionButton)`,
      })
    })

    it("drag sends startRef and endRef; scroll sends dy/dx as Dusk's CLI does, and moves only by them", async () => {
      const api = refOf(monitors, /button "API/)
      const db = refOf(monitors, /button "DB/)
      const drag = await traced(s, ['tapir:drag', `--startRef=${api}`, `--endRef=${db}`])
      expect(drag).toMatchObject({exitCode: 0, stdout: `✓ Dragged ${api} to ${db}`})
      expect(drag.calls).toEqual([{method: 'ext.dusk.drag', params: {startRef: api, endRef: db, ...GATED}}])
      const row = refOf((await s.run(['tapir:snap'])).stdout, /button "Queue"/)
      const scroll = await traced(s, ['tapir:scroll', `--ref=${row}`, '--direction=down', '--pixels=300', '--json'])
      expect(scroll).toMatchObject({exitCode: 0, stderr: ''})
      expect(JSON.parse(scroll.stdout)).toEqual({scrolled: true, finalOffset: 300})
      expect(scroll.calls).toEqual([{method: 'ext.dusk.scroll', params: {ref: row, dy: '300', includeSnapshot: 'false'}}])
      // Back up, with no ref: the first Scrollable, as 0.0.1 does.
      const up = await traced(s, ['tapir:scroll', '--direction=up', '--pixels=300'])
      expect(up).toMatchObject({exitCode: 0, stdout: '✓ Scrolled (offset ? → 0)'})
      expect(up.calls).toEqual([{method: 'ext.dusk.scroll', params: {dy: '-300', includeSnapshot: 'false'}}])
    })

    it('navigate_back', async () => {
      await s.run(['tapir:navigate', '--route=/settings'])
      expect(await traced(s, ['tapir:navigate_back'])).toMatchObject({
        exitCode: 0,
        calls: [{method: 'ext.dusk.navigate_back', params: {includeSnapshot: 'false'}}],
      })
    })
  })

  describe('on /settings', () => {
    let settings: string
    beforeAll(async () => {
      await s.run(['tapir:navigate', '--route=/settings'])
      settings = (await s.run(['tapir:snap'])).stdout
    })

    it('select_option and set_checkbox', async () => {
      const region = refOf(settings, /button "Region"/)
      const select = await traced(s, ['tapir:select_option', `--ref=${region}`, '--value=us'])
      expect(select).toMatchObject({exitCode: 0, stdout: `✓ Selected "us" on ${region}`})
      expect(select.calls).toEqual([{method: 'ext.dusk.select_option', params: {ref: region, value: 'us'}}])
      const box = refOf(settings, /checkbox "Email alerts"/)
      const check = await traced(s, ['tapir:set_checkbox', `--ref=${box}`, '--value=true'])
      expect(check).toMatchObject({exitCode: 0, stdout: `✓ Checkbox ${box} set to true`})
      expect(check.calls).toEqual([{method: 'ext.dusk.set_checkbox', params: {ref: box, value: 'true'}}])
    })
  })

  it.each([
    [
      ['tapir:find', '--text=Email', '--within=e1'],
      '✗ --within is not available: the app runs Dusk 0.0.1, whose find has no such parameter. Leave it out, or move the app to tapir (see tapir doctor).',
    ],
    [
      ['tapir:fill', '--ref=e2', '--text=x'],
      '✗ tapir:fill needs the tapir package, but the app runs Dusk 0.0.1, which has no such call. Move the app to tapir (see tapir doctor).',
    ],
    [
      ['tapir:reset_overlays'],
      '✗ tapir:reset_overlays needs the tapir package, but the app runs Dusk 0.0.1, which has no such call. Move the app to tapir (see tapir doctor).',
    ],
    [
      ['tapir:perf_begin'],
      '✗ tapir:perf_begin needs the tapir package, but the app runs Dusk 0.0.1, which has no such call. Move the app to tapir (see tapir doctor).',
    ],
    [['tapir:exceptions', '--clear'], DUSK_REFUSAL],
    [['tapir:tap', '--ref=e4', '--snapshot=diff'], DUSK_REFUSAL],
  ])('%j is refused with exit 1 in one line, and nothing is sent to the app', async (args, message) => {
    const result = await traced(s, args)
    expect(result).toMatchObject({exitCode: 1, stdout: '', calls: []})
    expect(result.stderr).toMatch(typeof message === 'string' ? new RegExp(`^${message.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}$`) : message)
  })

  it('close_app reaches ext.dusk.close_app', async () => {
    expect(await traced(s, ['tapir:close_app'])).toMatchObject({
      exitCode: 0,
      stdout: '✓ Asked the app to close',
      calls: [{method: 'ext.dusk.close_app', params: {}}],
    })
  })
})

describe('an app that lists both packages', () => {
  it('is driven through ext.tapir.*', async () => {
    const s = await simSession({package: 'both'})
    try {
      expect((await s.run(['tapir:snap'])).exitCode).toBe(0)
      expect(await s.run(['tapir:tap', '--ref=e4'])).toMatchObject({exitCode: 0, stdout: '✓ Tapped e4'})
      const methods = s.sim.requests.map((request) => request.method).filter((method) => method.startsWith('ext.'))
      expect(methods).toEqual(['ext.tapir.snap', 'ext.tapir.tap'])
    } finally {
      await s.close()
    }
  })
})

describe('tapir start --device=sim --package=dusk', () => {
  it('starts a sim on Dusk 0.0.1: snap works, status says dusk, doctor says what is lost and how to move on', async () => {
    const scratch = tempDir()
    const env = {TAPIR_STATE_FILE: join(scratch.path, 'state.json')}
    const run = (args: string[]) => tapir(args, {cwd: scratch.path, home: scratch.path, env})
    try {
      const start = await run(['start', '--device=sim', '--package=dusk'])
      expect(start.exitCode, start.stderr).toBe(0)
      expect(await run(['tapir:snap', '--interactiveOnly'])).toMatchObject({
        exitCode: 0,
        stdout: expect.stringContaining('- button "Sign in" [ref=e4]'),
      })
      const status = await run(['status'])
      expect(JSON.parse(status.stdout)).toMatchObject({answering: true, package: 'dusk'})
      const doctor = await run(['doctor'])
      expect(doctor.exitCode).toBe(0)
      expect(doctor.stdout).toMatch(
        /^⚠ tapir: the app runs Dusk 0\.0\.1 \(ext\.dusk\.\*\).*depend on the tapir package.*TapirPlugin\.install\(\)/m,
      )
    } finally {
      await run(['stop'])
      expect(existsSync(env.TAPIR_STATE_FILE)).toBe(false)
      scratch.remove()
    }
  })

  it('a tapir sim says tapir in status, and --package needs the sim', async () => {
    const s = await simSession()
    try {
      expect(JSON.parse((await s.run(['status'])).stdout)).toMatchObject({package: 'tapir'})
      expect((await s.run(['doctor'])).stdout).toContain(
        '✓ tapir: the app runs the tapir package: its ext.tapir.* extensions are registered',
      )
    } finally {
      await s.close()
    }
    const refused = await tapir(['start', '--device=emulator-5554', '--package=dusk'])
    expect(refused).toMatchObject({
      exitCode: 1,
      stderr: expect.stringMatching(/^✗ --package chooses what the sim registers: it needs --device=sim/),
    })
  })
})

describe('MCP (the default tapir_* catalogue) against an app on Dusk 0.0.1', () => {
  it('drives it through ext.dusk.*, and refuses in MCP words', async () => {
    const s = await simSession({package: 'dusk'})
    const client = await mcpClient(s.state)
    const textOf = (result: unknown) => (result as {content: Array<{text: string}>}).content[0]!.text
    try {
      expect(JSON.parse(textOf(await client.callTool({name: 'tapir_snap', arguments: {interactiveOnly: true}}))).snapshot).toContain(
        '- button "Sign in" [ref=e4]',
      )
      const tap = await client.callTool({name: 'tapir_tap', arguments: {ref: 'e4'}})
      expect(tap.isError).toBeFalsy()
      // MCP asks for the snapshot after a tap by default; 0.0.1's tap embeds it when includeSnapshot is true.
      expect(JSON.parse(textOf(tap))).toMatchObject({ref: 'e4', snapshot: expect.stringContaining('[ref=e4]')})
      const fill = await client.callTool({name: 'tapir_fill', arguments: {ref: 'e2', text: 'x'}})
      expect(fill.isError).toBe(true)
      expect(textOf(fill).split('\n')[0]).toBe(
        'tapir_fill needs the tapir package, but the app runs Dusk 0.0.1, which has no such call. Move the app to tapir (see tapir doctor).',
      )
      const within = await client.callTool({name: 'tapir_find', arguments: {text: 'Email', within: 'e1'}})
      expect(textOf(within).split('\n')[0]).toMatch(/^within is not available: the app runs Dusk 0\.0\.1, whose find has no such parameter/)
      const methods = s.sim.requests.map((request) => request.method).filter((method) => method.startsWith('ext.'))
      expect(methods).toEqual(['ext.dusk.snap', 'ext.dusk.tap'])
      expect(s.sim.violations).toEqual([])
    } finally {
      await client.close()
      await s.close()
    }
  })
})
