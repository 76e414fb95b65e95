import {readFileSync} from 'node:fs'
import {join} from 'node:path'
import type {Client} from '@modelcontextprotocol/sdk/client/index.js'
import {afterAll, beforeAll, beforeEach, describe, expect, it} from 'vitest'
import {ROOT, tapir} from '../helpers/cli.js'
import {mcpClient} from '../helpers/mcp.js'
import {refOf, signIn, simSession, type SimSession} from '../helpers/sim.js'

type Content = Array<{type: string; text: string}>
const textOf = (result: unknown) => (result as {content: Content}).content[0]!.text
/** The data of a result's image block. */
const imageOf = (result: unknown) =>
  (result as {content: Array<{type: string; data?: string}>}).content.find((part) => part.type === 'image')!.data!
const jsonOf = (result: unknown) => JSON.parse(textOf(result)) as Record<string, unknown>
/** An error result's human message: its text up to the error object. */
const messageOf = (result: unknown) => textOf(result).split('\n').slice(0, -1).join('\n')
/** An error result's error object: its last line. */
const errorOf = (result: unknown) => (JSON.parse(textOf(result).split('\n').at(-1)!) as {error: Record<string, unknown>}).error

type Property = {type: string; items?: {type: string; enum?: string[]}; enum?: string[]; default?: unknown}
type Schema = {properties: Record<string, Property>; required?: string[]}

const reference = JSON.parse(readFileSync(join(ROOT, 'spec', 'dusk-tools.json'), 'utf8')) as {tools: Array<{name: string}>}

describe('tapir mcp:serve --catalogue=dusk, through the MCP SDK client, against the sim', () => {
  let s: SimSession
  let client: Client
  beforeAll(async () => {
    s = await simSession()
    await signIn(s)
    client = await mcpClient(s.state, ['--catalogue=dusk'])
  })
  afterAll(async () => {
    await client.close()
    expect(s.sim.violations).toEqual([])
    await s.close()
  })
  beforeEach(() => {
    s.sim.requests.length = 0
  })

  /** The extension calls the app received since the test began: method and params. */
  const sent = (method: string) => s.sim.requests.filter((request) => request.method === method).map((request) => request.params)
  const snap = async () => textOf(await client.callTool({name: 'dusk_snap', arguments: {}}))

  it('lists exactly the 31 dusk_* tools of the 0.0.1 reference, with its schemas', async () => {
    const {tools} = await client.listTools()
    expect(tools).toHaveLength(31)
    expect(tools.map((tool) => tool.name)).toEqual(reference.tools.map((tool) => tool.name))
    const schema = (name: string) => tools.find((tool) => tool.name === name)!.inputSchema as unknown as Schema
    expect(schema('dusk_resize_viewport').properties.deviceScaleFactor).toMatchObject({type: 'number', default: 1})
    expect(schema('dusk_resize_viewport').required?.sort()).toEqual(['height', 'width'])
    expect(schema('dusk_press_key').properties.modifiers).toMatchObject({
      type: 'array',
      items: {type: 'string', enum: ['control', 'shift', 'alt', 'meta']},
    })
    expect(Object.keys(schema('dusk_snap').properties)).toEqual(['depth'])
    expect(schema('dusk_scroll').required).toEqual(['ref'])
    expect(schema('dusk_drag').required).toEqual(['startRef', 'endRef'])
  })

  it('dusk_snap answers the YAML of the screen, asking the app for the depth and nothing a plain tapir:snap would not', async () => {
    const result = await client.callTool({name: 'dusk_snap', arguments: {depth: 40}})
    expect(result.isError).toBeFalsy()
    expect(textOf(result)).toMatch(/^- heading "Monitors" \[ref=e1\]\n/)
    expect(textOf(result)).toMatch(/- button "API" \[ref=e\d+\]/)
    expect(sent('ext.tapir.snap')).toEqual([expect.objectContaining({depth: '40', interactiveOnly: 'false', includeEnrichers: 'false'})])
  })

  it("dusk_tap taps by ref and answers 0.0.1's {ref}; the app's refusal is an error result (exit 3)", async () => {
    const pause = refOf(await snap(), /button "Pause"/)
    s.sim.requests.length = 0
    const result = await client.callTool({name: 'dusk_tap', arguments: {ref: pause}})
    expect(result.isError, textOf(result)).toBeFalsy()
    expect(jsonOf(result)).toMatchObject({ref: pause})
    expect(sent('ext.tapir.tap')).toEqual([expect.objectContaining({ref: pause, includeSnapshot: 'false'})])
    const exported = refOf(await snap(), /button "Export"/)
    const refused = await client.callTool({name: 'dusk_tap', arguments: {ref: exported}})
    expect(refused.isError).toBe(true)
    expect(messageOf(refused)).toBe(`Widget ref=${exported} is not actionable: not enabled`)
    expect(errorOf(refused)).toMatchObject({exitCode: 3, envelope: {type: 'disabled'}})
  })

  it('dusk_drag drags startRef onto endRef and echoes both, as 0.0.1 does', async () => {
    const screen = await snap()
    const [api, db] = [refOf(screen, /button "API"/), refOf(screen, /button "DB"/)]
    s.sim.requests.length = 0
    const result = await client.callTool({name: 'dusk_drag', arguments: {startRef: api, endRef: db}})
    expect(result.isError, textOf(result)).toBeFalsy()
    expect(jsonOf(result)).toMatchObject({startRef: api, endRef: db})
    expect(sent('ext.tapir.drag')).toEqual([expect.objectContaining({startRef: api, endRef: db})])
    const order = (await snap())
      .split('\n')
      .filter((line) => /button "(API|Web|DB)"/.test(line))
      .map((line) => /"([^"]+)"/.exec(line)![1])
    expect(order).toEqual(['Web', 'DB', 'API'])
  })

  it('dusk_press_key presses a key with modifiers held', async () => {
    const result = await client.callTool({name: 'dusk_press_key', arguments: {key: 'S', modifiers: ['control', 'shift']}})
    expect(result.isError, textOf(result)).toBeFalsy()
    expect(jsonOf(result)).toMatchObject({key: 'S'})
    expect(sent('ext.tapir.press_key')).toEqual([expect.objectContaining({key: 'S', modifiers: 'control,shift'})])
  })

  it('dusk_evaluate answers {result} with the value as text', async () => {
    const result = await client.callTool({name: 'dusk_evaluate', arguments: {expression: '1 + 2'}})
    expect(result.isError, textOf(result)).toBeFalsy()
    expect(jsonOf(result)).toMatchObject({result: '3'})
  })

  it("dusk_screenshot takes 0.0.1's defaults (PNG, quality 80) and answers {format} beside the image block", async () => {
    const result = await client.callTool({name: 'dusk_screenshot', arguments: {}})
    expect(result.isError, textOf(result)).toBeFalsy()
    expect(jsonOf(result).format).toBe('png')
    expect(Buffer.from(imageOf(result), 'base64').subarray(1, 4).toString()).toBe('PNG')
    expect(sent('ext.tapir.screenshot')).toEqual([expect.objectContaining({format: 'png', quality: '80'})])
  })

  it("dusk_console and dusk_wait_for answer in 0.0.1's shapes; a wait that times out is an error (exit 1)", async () => {
    expect(jsonOf(await client.callTool({name: 'dusk_console', arguments: {limit: 1}}))).toMatchObject({
      entries: [expect.objectContaining({level: expect.any(String), message: expect.any(String)})],
    })
    expect(jsonOf(await client.callTool({name: 'dusk_wait_for', arguments: {text: 'Monitors', timeoutMs: 500}}))).toMatchObject({
      matched: true,
      waitedMs: expect.any(Number),
    })
    const timedOut = await client.callTool({name: 'dusk_wait_for', arguments: {text: 'No such text', timeoutMs: 200}})
    expect(timedOut.isError).toBe(true)
    expect(messageOf(timedOut)).toMatch(/^Nothing matched within 200 ms/)
    expect(errorOf(timedOut)).toMatchObject({exitCode: 1})
  })

  // MCP 2025-11-25, server/tools "Error Handling": an unknown tool is a protocol error (-32602), bad arguments an isError result.
  it('refuses an unknown tool with -32602, and bad arguments as error results naming the fix', async () => {
    await expect(client.callTool({name: 'tapir_snap', arguments: {}})).rejects.toMatchObject({
      code: -32602,
      message: expect.stringContaining('Unknown tool: tapir_snap. tools/list names the tools this server has.'),
    })
    const refusals: Array<[string, Record<string, unknown>, string]> = [
      ['dusk_snap', {grep: 'API'}, 'dusk_snap takes no argument "grep"; it takes depth.'],
      ['dusk_tap', {ref: 5}, 'Parameter "ref" must be a string'],
      ['dusk_scroll', {direction: 'down'}, 'Missing required parameter "ref"'],
      ['dusk_resize_viewport', {width: 375}, 'Missing required parameter "height"'],
      ['dusk_press_key', {key: 'S', modifiers: ['hyper']}, 'Each of modifiers must be one of control, shift, alt, meta (got "hyper").'],
      ['dusk_screenshot', {format: 'gif'}, 'format must be one of jpeg, png (got "gif").'],
      ['dusk_wait_for', {text: 'a', textGone: 'b'}, 'Pass only one of text, textGone.'],
      ['dusk_resize_viewport', {width: 375, height: 812, deviceScaleFactor: 0}, 'deviceScaleFactor must be above 0 (got 0).'],
      ['dusk_find', {}, 'Provide at least one of text / contains / semanticsLabel / key.'],
    ]
    s.sim.requests.length = 0
    for (const [name, args, message] of refusals) {
      const result = await client.callTool({name, arguments: args})
      expect(result.isError, name).toBe(true)
      expect(messageOf(result), name).toBe(message)
      expect(errorOf(result).exitCode, name).toBe(1)
    }
    expect(s.sim.requests.filter((request) => request.method.startsWith('ext.'))).toEqual([])
  })
})

describe('mcp:serve --catalogue', () => {
  it('refuses an unknown catalogue in one ✗ line on stderr, exit 1, nothing on stdout', async () => {
    const result = await tapir(['mcp:serve', '--catalogue=playwright'])
    expect(result.exitCode).toBe(1)
    expect(result.stdout).toBe('')
    expect(result.stderr).toMatch(/^✗ [^\n]*--catalogue[^\n]*tapir, dusk[^\n]*$/)
  })
})

describe('tapir mcp:serve --catalogue=dusk against an app on Dusk 0.0.1 (ext.dusk.* only)', () => {
  let s: SimSession
  let client: Client
  beforeAll(async () => {
    s = await simSession({package: 'dusk'})
    client = await mcpClient(s.state, ['--catalogue=dusk'])
  })
  afterAll(async () => {
    await client.close()
    // Nothing went out under ext.tapir.*; every ext.dusk.* param was a string (the sim refuses others).
    expect(s.sim.requests.filter((request) => request.method.startsWith('ext.tapir.'))).toEqual([])
    expect(s.sim.violations).toEqual([])
    await s.close()
  })

  /** Calls one tool: its answer, and the ext.* calls the app received for it (params less the isolate). */
  const traced = async (name: string, args: Record<string, unknown>) => {
    const from = s.sim.requests.length
    const result = await client.callTool({name, arguments: args})
    const calls = s.sim.requests
      .slice(from)
      .filter((request) => request.method.startsWith('ext.'))
      .map(({method, params: {isolateId: _isolateId, ...params}}) => ({method, params}))
    return {result, calls}
  }
  /** A call that succeeded: its text, and the one ext.* call it made. */
  const ok = async (name: string, args: Record<string, unknown>) => {
    const {result, calls} = await traced(name, args)
    expect(result.isError, `${name}: ${textOf(result)}`).toBeFalsy()
    return {text: textOf(result), calls}
  }
  const answer = async (name: string, args: Record<string, unknown>) => {
    const {text, calls} = await ok(name, args)
    return {answer: JSON.parse(text) as Record<string, unknown>, calls}
  }
  const call = (method: string, params: Record<string, string> = {}) => [{method: `ext.dusk.${method}`, params}]
  /** What ext_pointer.dart's handlers and aiTestTypeHandler read besides the ref, at the CLI's defaults. */
  const gated = {includeSnapshot: 'false', checkStable: 'true', checkReceivesEvents: 'true'}

  it('dusk_snap, dusk_type, dusk_clear, dusk_focus, dusk_press_key (with modifiers), dusk_blur on the sign-in screen', async () => {
    const snap = await ok('dusk_snap', {depth: 8})
    expect(snap.text).toContain('- textbox "Email" [ref=e2]')
    expect(snap.calls).toEqual(call('snap', {depth: '8'}))
    expect(await answer('dusk_type', {ref: 'e2', text: 'ada@example.com'})).toEqual({
      answer: {ref: 'e2', text: 'ada@example.com'},
      calls: call('type', {ref: 'e2', text: 'ada@example.com', ...gated}),
    })
    expect(await answer('dusk_clear', {ref: 'e2'})).toEqual({
      answer: {ref: 'e2', text: ''},
      calls: call('clear', {ref: 'e2', includeSnapshot: 'false'}),
    })
    expect(await answer('dusk_focus', {ref: 'e3'})).toEqual({
      answer: {ref: 'e3', focused: true},
      calls: call('focus', {ref: 'e3', includeSnapshot: 'false'}),
    })
    expect(await answer('dusk_press_key', {key: 'S', modifiers: ['control', 'shift']})).toMatchObject({
      answer: {key: 'S'},
      calls: call('press_key', {key: 'S', modifiers: 'control,shift', includeSnapshot: 'false'}),
    })
    expect(await answer('dusk_blur', {})).toEqual({
      answer: {blurred: true, hadFocus: true},
      calls: call('blur', {includeSnapshot: 'false'}),
    })
  })

  it('dusk_find, dusk_observe, dusk_get_routes, dusk_console, dusk_exceptions, dusk_evaluate, dusk_screenshot', async () => {
    expect(await answer('dusk_find', {text: 'Email'})).toMatchObject({
      answer: {ref: expect.stringMatching(/^q\d+$/), matched: true},
      calls: call('find', {text: 'Email'}),
    })
    expect(await answer('dusk_observe', {roles: 'textbox', limit: 2})).toMatchObject({
      answer: {candidates: [expect.objectContaining({role: 'textbox'}), expect.objectContaining({role: 'textbox'})]},
      calls: call('observe', {roles: 'textbox', limit: '2'}),
    })
    expect(await answer('dusk_get_routes', {})).toEqual({answer: {location: '', title: ''}, calls: call('get_routes')})
    expect(await answer('dusk_console', {limit: 1, minLevel: 'ERROR'})).toMatchObject({
      answer: {entries: expect.any(Array)},
      calls: call('console', {limit: '1', minLevel: 'ERROR'}),
    })
    expect(await answer('dusk_exceptions', {limit: 1})).toMatchObject({
      answer: {entries: expect.any(Array)},
      calls: call('exceptions', {limit: '1'}),
    })
    expect(await answer('dusk_evaluate', {expression: '1 + 2'})).toMatchObject({
      answer: {result: '3'},
      calls: call('evaluate', {expression: '1 + 2'}),
    })
    const shot = await traced('dusk_screenshot', {})
    expect(shot.calls).toEqual(call('screenshot', {format: 'png', quality: '80'}))
    expect(Buffer.from(imageOf(shot.result), 'base64').subarray(1, 4).toString()).toBe('PNG')
  })

  it('dusk_wait_for and dusk_wait_for_network_idle; a wait the app times out is an error result (exit 1)', async () => {
    expect(await answer('dusk_wait_for', {text: 'Email', timeoutMs: 500})).toMatchObject({
      answer: {matched: true, waitedMs: expect.any(Number)},
      calls: call('wait_for', {text: 'Email', timeoutMs: '500'}),
    })
    const timedOut = await traced('dusk_wait_for', {text: 'No such text', timeoutMs: 200})
    expect(timedOut.result.isError).toBe(true)
    expect(errorOf(timedOut.result)).toMatchObject({exitCode: 1})
    expect(timedOut.calls).toEqual(call('wait_for', {text: 'No such text', timeoutMs: '200'}))
    expect(await answer('dusk_wait_for_network_idle', {timeoutMs: 3000, idleMs: 100})).toMatchObject({
      answer: {matched: true},
      calls: call('wait_for_network_idle', {timeoutMs: '3000', idleMs: '100', pollIntervalMs: '200'}),
    })
  })

  it('on /monitors: dusk_navigate, dusk_drag, dusk_scroll, dusk_tap, dusk_navigate_back, the pointer tools, dusk_dismiss_modals', async () => {
    expect(await answer('dusk_navigate', {route: '/monitors'})).toEqual({
      answer: {navigated: true, route: '/monitors'},
      calls: call('navigate', {route: '/monitors', includeSnapshot: 'false'}),
    })
    const screen = (await ok('dusk_snap', {})).text
    const [api, db] = [refOf(screen, /button "API"/), refOf(screen, /button "DB"/)]
    expect(await answer('dusk_drag', {startRef: api, endRef: db})).toEqual({
      answer: {startRef: api, endRef: db},
      calls: call('drag', {startRef: api, endRef: db, ...gated}),
    })
    const reordered = (await ok('dusk_snap', {})).text
    const queue = refOf(reordered, /button "Queue"/)
    expect(await answer('dusk_scroll', {ref: queue, pixels: 200})).toEqual({
      answer: {ref: queue, direction: 'down', pixels: 200, scrolled: true, finalOffset: 200},
      calls: call('scroll', {ref: queue, dy: '200', includeSnapshot: 'false'}),
    })
    const [web, moved] = [refOf(reordered, /button "Web"/), refOf(reordered, /button "API"/)]
    expect(await answer('dusk_tap', {ref: moved})).toEqual({answer: {ref: moved}, calls: call('tap', {ref: moved, ...gated})})
    expect(await answer('dusk_navigate_back', {})).toEqual({
      answer: {navigatedBack: true},
      calls: call('navigate_back', {includeSnapshot: 'false'}),
    })
    expect(await answer('dusk_hover', {ref: web})).toEqual({answer: {ref: web}, calls: call('hover', {ref: web, ...gated})})
    expect(await answer('dusk_dblclick', {ref: web})).toEqual({answer: {ref: web}, calls: call('dblclick', {ref: web, ...gated})})
    expect(await answer('dusk_right_click', {ref: web})).toEqual({
      answer: {ref: web, button: 'right'},
      calls: call('right_click', {ref: web, ...gated}),
    })
    expect(await answer('dusk_dismiss_modals', {})).toEqual({answer: {popped: 1}, calls: call('dismiss_modals')})
    expect(await answer('dusk_triple_click', {ref: web, checkStable: false})).toEqual({
      answer: {ref: web, clickCount: 3},
      calls: call('triple_click', {ref: web, ...gated, checkStable: 'false'}),
    })
  })

  it("a gate refusal is the app's error (exit 3), with its message", async () => {
    await ok('dusk_navigate', {route: '/monitors'})
    const covered = refOf((await ok('dusk_snap', {})).text, /button "Pause" \[ref=e\d+\] \[occluded\]/)
    const {result, calls} = await traced('dusk_tap', {ref: covered})
    expect(result.isError).toBe(true)
    expect(messageOf(result)).toMatch(new RegExp(`^Widget ref=${covered} is not actionable: obscured`))
    expect(errorOf(result)).toMatchObject({exitCode: 3})
    expect(calls).toEqual(call('tap', {ref: covered, ...gated}))
  })

  it('on /settings: dusk_select_option and dusk_set_checkbox; then dusk_close_app', async () => {
    await ok('dusk_navigate', {route: '/settings'})
    const screen = (await ok('dusk_snap', {})).text
    const [region, box] = [refOf(screen, /button "Region"/), refOf(screen, /checkbox "Email alerts"/)]
    expect(await answer('dusk_select_option', {ref: region, value: 'us'})).toEqual({
      answer: {ref: region, value: 'us'},
      calls: call('select_option', {ref: region, value: 'us'}),
    })
    expect(await answer('dusk_set_checkbox', {ref: box, value: 'true'})).toMatchObject({
      answer: {ref: box, previousValue: false, value: true, toggled: true},
      calls: call('set_checkbox', {ref: box, value: 'true'}),
    })
    expect(await answer('dusk_close_app', {})).toEqual({answer: {}, calls: call('close_app')})
  })
})

describe('tapir mcp:serve --catalogue=dusk against an app that lists both packages', () => {
  it('drives it through ext.tapir.*', async () => {
    const s = await simSession({package: 'both'})
    const client = await mcpClient(s.state, ['--catalogue=dusk'])
    try {
      const snap = await client.callTool({name: 'dusk_snap', arguments: {}})
      expect(textOf(snap)).toContain('- button "Sign in" [ref=e4]')
      expect(jsonOf(await client.callTool({name: 'dusk_tap', arguments: {ref: 'e4'}}))).toMatchObject({ref: 'e4'})
      const methods = s.sim.requests.map((request) => request.method).filter((method) => method.startsWith('ext.'))
      expect(methods).toEqual(['ext.tapir.snap', 'ext.tapir.tap'])
    } finally {
      await client.close()
      await s.close()
    }
  })
})
