import {readFileSync} from 'node:fs'
import {join} from 'node:path'
import type {Client} from '@modelcontextprotocol/sdk/client/index.js'
import {afterAll, beforeAll, beforeEach, describe, expect, it} from 'vitest'
import {ROOT, tapir} from '../helpers/cli.js'
import {mcpClient} from '../helpers/mcp.js'
import {refOf, signIn, simSession, type SimSession} from '../helpers/sim.js'

type Content = Array<{type: string; text: string}>
const textOf = (result: unknown) => (result as {content: Content}).content[0]!.text
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

  it("dusk_screenshot takes 0.0.1's defaults (PNG, quality 80) and answers {format, bytes}", async () => {
    const result = await client.callTool({name: 'dusk_screenshot', arguments: {}})
    expect(result.isError, textOf(result)).toBeFalsy()
    const answer = jsonOf(result)
    expect(answer.format).toBe('png')
    expect(
      Buffer.from(answer.bytes as string, 'base64')
        .subarray(1, 4)
        .toString(),
    ).toBe('PNG')
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

  it('refuses bad arguments: an unknown one with -32602, the others as error results naming the fix', async () => {
    await expect(client.callTool({name: 'dusk_snap', arguments: {grep: 'API'}})).rejects.toMatchObject({
      code: -32602,
      message: expect.stringContaining('dusk_snap takes no argument "grep"; it takes depth.'),
    })
    const refusals: Array<[string, Record<string, unknown>, string]> = [
      ['dusk_tap', {ref: 5}, 'Parameter "ref" must be a string'],
      ['dusk_scroll', {direction: 'down'}, 'Missing required parameter "ref"'],
      ['dusk_resize_viewport', {width: 375}, 'Missing required parameter "height"'],
      ['dusk_press_key', {key: 'S', modifiers: ['hyper']}, 'Each of modifiers must be one of control, shift, alt, meta (got "hyper").'],
      ['dusk_screenshot', {format: 'gif'}, 'format must be one of jpeg, png (got "gif").'],
      ['dusk_wait_for', {text: 'a', textGone: 'b'}, 'Pass only one of text, textGone.'],
      ['dusk_resize_viewport', {width: 375, height: 812, deviceScaleFactor: 0}, 'deviceScaleFactor must be above 0 (got 0).'],
      ['dusk_find', {}, 'Provide at least one of text / contains / semanticsLabel / key.'],
      ['tapir_snap', {}, 'Unknown tool: tapir_snap. tools/list names the tools this server has.'],
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
