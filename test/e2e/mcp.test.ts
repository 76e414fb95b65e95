import {readFileSync, writeFileSync} from 'node:fs'
import {join} from 'node:path'
import type {Client} from '@modelcontextprotocol/sdk/client/index.js'
import {StdioClientTransport} from '@modelcontextprotocol/sdk/client/stdio.js'
import {execa} from 'execa'
import {afterAll, beforeAll, describe, expect, it} from 'vitest'
import {COMMANDS} from '../../src/commands/list.js'
import {sessionTools} from '../../src/lib/mcp/session-tools.js'
import {VERBS} from '../../src/lib/verbs/index.js'
import {createMonitorsApp} from '../../src/sim/app/index.js'
import {startSim} from '../../src/sim/index.js'
import {BIN, ROOT} from '../helpers/cli.js'
import {McpTestClient, mcpClient} from '../helpers/mcp.js'
import {signIn, simSession, type SimSession} from '../helpers/sim.js'

type Content = Array<{type: string; text: string}>
const textOf = (result: unknown) => (result as {content: Content}).content[0]!.text
/** An error result's human message: its text up to the error object. */
const messageOf = (result: unknown) => textOf(result).split('\n').slice(0, -1).join('\n')
/** An error result's `{"error": {...}}` object: its last line. */
const errorOf = (result: unknown) =>
  JSON.parse(textOf(result).split('\n').at(-1)!) as {error: Record<string, unknown> & {envelope?: {type?: string}}}

const connect = mcpClient

describe('tapir mcp:serve, through the MCP SDK client over stdio', () => {
  let s: SimSession
  let client: Client
  beforeAll(async () => {
    s = await simSession()
    client = await connect(s.state)
  })
  afterAll(async () => {
    await client.close()
    expect(s.sim.violations).toEqual([])
    await s.close()
  })

  it('lists one tool per catalogue verb, tapir_run, tapir_trace_summary and the session tools, with annotations', async () => {
    const {tools} = await client.listTools()
    const expected = [
      ...VERBS.flatMap((verb) => (verb.tool ? [verb.tool] : [])),
      'tapir_run',
      'tapir_trace_summary',
      ...sessionTools(COMMANDS).map((tool) => tool.tool),
    ].sort()
    expect(tools.map((tool) => tool.name)).toEqual(expected)
    const byName = new Map(tools.map((tool) => [tool.name, tool]))
    expect(byName.get('tapir_snap')!.annotations).toEqual({readOnlyHint: true, openWorldHint: false})
    // destructiveHint at MCP's default, true
    expect(byName.get('tapir_close_app')!.annotations).toEqual({openWorldHint: false})
  })

  /** tapir's additions to the reference (an optional path each): see test/contract/spec.test.ts. */
  const ADDITIONS: Record<string, string[]> = {tapir_perf_run: ['html'], tapir_perf_compare: ['html']}

  it("gives every tool the reference's parameters, types, required and defaults, and refuses others", async () => {
    const spec = JSON.parse(readFileSync(join(ROOT, 'spec', 'tools.json'), 'utf8')) as {
      tools: Array<{name: string; params: Array<{name: string; type: string; required: boolean; default?: unknown}>}>
    }
    const {tools} = await client.listTools()
    // The session tools, tapir_expect, tapir_a11y and tapir_trace_summary are tapir's own additions: the
    // reference has none of them (test/contract/spec.test.ts lists them).
    const own = new Set(['tapir_expect', 'tapir_a11y', 'tapir_trace_summary'])
    for (const tool of tools.filter(
      (candidate) => !sessionTools(COMMANDS).some((tool) => tool.tool === candidate.name) && !own.has(candidate.name),
    )) {
      const reference = spec.tools.find((candidate) => candidate.name === tool.name)!
      const schema = tool.inputSchema as unknown as {
        properties: Record<string, {type: string; items?: {type: string}; default?: unknown}>
        required?: string[]
      }
      const added = ADDITIONS[tool.name] ?? []
      expect(Object.keys(schema.properties).sort(), tool.name).toEqual([...reference.params.map((param) => param.name), ...added].sort())
      for (const name of added) expect(schema.properties[name]!.type, `${tool.name}.${name}`).toBe('string')
      expect((schema.required ?? []).sort(), tool.name).toEqual(
        reference.params
          .filter((param) => param.required)
          .map((param) => param.name)
          .sort(),
      )
      for (const param of reference.params) {
        const property = schema.properties[param.name]!
        expect(param.type === 'array<string>' ? `array<${property.items?.type}>` : property.type, `${tool.name}.${param.name}`).toBe(
          param.type,
        )
        if (param.default !== undefined) expect(property.default, `${tool.name}.${param.name} default`).toEqual(param.default)
      }
    }
  })

  it('tapir_snap answers the snapshot JSON', async () => {
    const result = await client.callTool({name: 'tapir_snap', arguments: {interactiveOnly: true}})
    expect(result.isError).toBeFalsy()
    expect(JSON.parse(textOf(result))).toMatchObject({
      snapshot: expect.stringContaining('- textbox "Email" [ref=e'),
      groupId: expect.any(String),
    })
  })

  it('tapir_find then tapir_fill with the spec defaults (a snapshot comes back)', async () => {
    const find = JSON.parse(textOf(await client.callTool({name: 'tapir_find', arguments: {key: 'email'}})))
    const fill = await client.callTool({name: 'tapir_fill', arguments: {ref: find.ref, text: 'ada@example.com'}})
    expect(fill.isError).toBeFalsy()
    expect(JSON.parse(textOf(fill))).toMatchObject({
      filled: true,
      effect: {kind: 'text', verified: true, value: 'ada@example.com'},
      snapshot: expect.stringContaining('ada@example.com'),
    })
  })

  // MCP 2025-11-25, server/tools "Error Handling": input validation errors are tool execution errors (isError).
  it('refuses an unknown argument, a wrong type and a missing required one with isError', async () => {
    const unknown = await client.callTool({name: 'tapir_screenshot', arguments: {geometry: 'true'}})
    expect(unknown.isError).toBe(true)
    expect(messageOf(unknown)).toMatch(/^tapir_screenshot takes no argument "geometry"; it takes /)
    expect(errorOf(unknown)).toMatchObject({error: {exitCode: 1}})
    const wrongType = await client.callTool({name: 'tapir_snap', arguments: {depth: 'deep'}})
    expect(messageOf(wrongType)).toBe('Parameter "depth" must be an integer')
    const missing = await client.callTool({name: 'tapir_tap', arguments: {}})
    expect(messageOf(missing)).toBe('Missing required parameter "ref"')
  })

  it("returns the app's errors as isError: the CLI's message, then the object the CLI's --json prints", async () => {
    const result = await client.callTool({name: 'tapir_tap', arguments: {ref: 'e999'}})
    expect(result.isError).toBe(true)
    expect(errorOf(result).error.message).toBe(
      'Widget ref=e999 is not actionable: not found in registry (take a snapshot and use a ref from it)',
    )
    const cli = await s.run(['tapir:tap', '--ref=e999'])
    // Each line ends with what to try next, in its own surface's words.
    const app = errorOf(result).error.message as string
    expect(cli.stderr).toBe(`✗ ${app}. tapir never saw e999 in a snapshot: run tapir:snap for fresh refs.`)
    expect(messageOf(result)).toBe(`${app}. tapir never saw e999 in a snapshot: call tapir_snap for fresh refs.`)
    const json = await s.run(['tapir:tap', '--ref=e999', '--json'])
    expect(errorOf(result)).toEqual(JSON.parse(json.stdout))
    expect(errorOf(result)).toMatchObject({error: {exitCode: 3, code: -32000, envelope: {type: 'not_found'}}})
  })

  it('a hidden app is woken for a tool as for the CLI: framesForced in the answer, no warnings', async () => {
    s.sim.app.setLifecycle('hidden')
    try {
      const answer = JSON.parse(textOf(await client.callTool({name: 'tapir_snap', arguments: {interactiveOnly: true}})))
      expect(answer).toMatchObject({framesForced: true, snapshot: expect.stringContaining('[ref=e')})
      expect(answer).not.toHaveProperty('warnings')
      expect(JSON.parse(textOf(await client.callTool({name: 'tapir_console', arguments: {}})))).not.toHaveProperty('framesForced')
    } finally {
      s.sim.app.setLifecycle('resumed')
    }
  })

  it("keeps the app's typed envelope: a stale handle, a network-idle timeout, not found with candidates", async () => {
    s.sim.app.restart()
    const handle = JSON.parse(textOf(await client.callTool({name: 'tapir_find', arguments: {key: 'email'}}))).ref as string
    expect((await client.callTool({name: 'tapir_navigate', arguments: {route: '/settings'}})).isError).toBeFalsy()
    const stale = await client.callTool({name: 'tapir_fill', arguments: {ref: handle, text: 'x'}})
    expect(stale.isError).toBe(true)
    expect(messageOf(stale)).toMatch(/stale/)
    // The human line adds the way to a fresh ref, in MCP's words.
    expect(messageOf(stale)).toBe(`${errorOf(stale).error.message as string}. Call tapir_snap (or tapir_find again) for a fresh ref.`)
    expect(errorOf(stale).error).toMatchObject({exitCode: 3, envelope: {type: 'stale'}})
    const idle = await client.callTool({name: 'tapir_wait_for_network_idle', arguments: {timeoutMs: 300}})
    expect(idle.isError).toBe(true)
    expect(errorOf(idle).error).toMatchObject({exitCode: 1, envelope: {type: 'timeout'}})
    const heading = /heading "[^"]+" \[ref=(e\d+)\]/.exec(
      JSON.parse(textOf(await client.callTool({name: 'tapir_snap', arguments: {}}))).snapshot,
    )![1]
    const notFound = await client.callTool({name: 'tapir_select_option', arguments: {ref: heading, value: 'x'}})
    expect(messageOf(notFound)).toMatch(/no selectable widget/)
    expect(errorOf(notFound).error).toMatchObject({
      exitCode: 3,
      envelope: {type: 'not_found', suggestions: [expect.stringMatching(/^e\d+$/)]},
    })
    s.sim.app.restart()
  })

  it('names parameters as MCP names them; an unknown tool is a protocol error (-32602), as MCP 2025-11-25 says', async () => {
    await expect(client.callTool({name: 'tapir_nope', arguments: {}})).rejects.toMatchObject({
      code: -32602,
      message: expect.stringContaining('Unknown tool: tapir_nope. tools/list names the tools this server has.'),
    })
    const cases: Array<[string, Record<string, unknown>, string]> = [
      ['tapir_wait_for_network_idle', {pollIntervalMs: 50}, 'pollIntervalMs must be at least 100 (got 50).'],
      ['tapir_wait_for', {}, 'Provide at least one condition: text, textGone, or expression.'],
      ['tapir_find', {within: 'e1'}, 'Provide at least one of text / contains / semanticsLabel / key.'],
      ['tapir_screenshot', {rect: '0,0,10,10'}, 'rect is relative to a widget, so it needs ref. Omit both to capture the whole viewport.'],
      ['tapir_navigate', {route: 'settings'}, 'route must start with / (got "settings").'],
    ]
    for (const [name, args, message] of cases) {
      const result = await client.callTool({name, arguments: args})
      expect(result.isError, name).toBe(true)
      expect(messageOf(result), name).toBe(message)
      expect(errorOf(result), name).toEqual({error: {message, exitCode: 1}})
    }
    const cli = await s.run(['tapir:wait_for_network_idle', '--pollIntervalMs=50'])
    expect(cli.stderr).toBe('✗ --pollIntervalMs must be at least 100 (got 50).')
  })

  it('speaks no CLI exit rules in tool descriptions; an unverified set_checkbox is a normal result', async () => {
    const {tools} = await client.listTools()
    for (const tool of tools) expect(tool.description, tool.name).not.toMatch(/\bexit/i)
    expect(tools.find((tool) => tool.name === 'tapir_set_checkbox')!.description).toContain('effect.verified says if it took')
    s.sim.app.restart()
    await client.callTool({name: 'tapir_navigate', arguments: {route: '/settings'}})
    const snapshot = JSON.parse(textOf(await client.callTool({name: 'tapir_snap', arguments: {}}))).snapshot as string
    const ref = /checkbox "Accept beta terms" \[ref=(e\d+)\]/.exec(snapshot)![1]
    const result = await client.callTool({name: 'tapir_set_checkbox', arguments: {ref, value: 'true'}})
    expect(result.isError).toBeFalsy()
    expect(JSON.parse(textOf(result))).toMatchObject({effect: {kind: 'checked', verified: false}})
    s.sim.app.restart()
  })

  it('a wait that times out is a normal result, not an error', async () => {
    const result = await client.callTool({name: 'tapir_wait_for', arguments: {text: 'Nowhere', timeoutMs: 200}})
    expect(result.isError).toBeFalsy()
    expect(JSON.parse(textOf(result))).toMatchObject({matched: false, reason: 'timeout'})
  })

  it('tapir_evaluate is answered with the VM evaluate RPC', async () => {
    const result = await client.callTool({name: 'tapir_evaluate', arguments: {expression: '6 * 7'}})
    expect(JSON.parse(textOf(result))).toEqual({expression: '6 * 7', result: '42'})
    expect(s.sim.requests.some((request) => request.method === 'evaluate')).toBe(true)
  })

  it('tapir_run runs step lines as tapir:run does', async () => {
    const result = await client.callTool({
      name: 'tapir_run',
      arguments: {steps: ['find --key=password', 'fill --ref=q1 --text="x y"', 'snap --grep Password']},
    })
    expect(result.isError, textOf(result)).toBeFalsy()
    expect(textOf(result).split('\n')[1]).toBe('[2/3] fill --ref=q1 --text="x y" ok: ✓ Filled q1')
    const failing = await client.callTool({name: 'tapir_run', arguments: {steps: ['tap --ref=e999', 'snap']}})
    expect(failing.isError).toBe(true)
    expect(textOf(failing)).toContain('step 1 failed (exit 3): tap --ref=e999')
    expect(errorOf(failing)).toEqual({
      error: {
        message: 'step 1 failed (exit 3): tap --ref=e999',
        exitCode: 3,
        step: 1,
        code: -32000,
        envelope: expect.objectContaining({type: 'not_found'}),
      },
    })
    const refused = await client.callTool({name: 'tapir_run', arguments: {steps: ['snap | head']}})
    expect(refused.isError).toBe(true)
  })

  it('tapir_run runs repeated identical steps in the order given', async () => {
    const result = await client.callTool({name: 'tapir_run', arguments: {steps: ['get_routes', 'snap', 'get_routes', 'snap']}})
    expect(result.isError).toBeFalsy()
    const progress = textOf(result)
      .split('\n')
      .filter((line) => /^\[\d\/4\]/.test(line))
      .map((line) => line.split(' ok:')[0])
    expect(progress).toEqual(['[1/4] get_routes', '[2/4] snap', '[3/4] get_routes', '[4/4] snap'])
  })

  it('after a dropped connection, calls made together share one new connection and all succeed', async () => {
    s.sim.setFaults({dropSocketOn: 'ext.tapir.get_routes'})
    expect((await client.callTool({name: 'tapir_get_routes', arguments: {}})).isError).toBe(true)
    s.sim.setFaults({dropSocketOn: null})
    const results = await Promise.all([0, 1, 2, 3].map(() => client.callTool({name: 'tapir_get_routes', arguments: {}})))
    expect(results.map((result) => result.isError ?? false)).toEqual([false, false, false, false])
  })

  it('keeps one VM Service connection across calls', async () => {
    const before = s.sim.requests.filter((request) => request.method === 'getVM').length
    for (let i = 0; i < 3; i++) await client.callTool({name: 'tapir_get_routes', arguments: {}})
    expect(s.sim.requests.filter((request) => request.method === 'getVM').length).toBe(before)
  })
})

describe('tapir mcp:serve when the app changes', () => {
  it('reconnects when the session names a new app, and after a hot restart', async () => {
    const s = await simSession()
    const client = await connect(s.state)
    try {
      expect((await client.callTool({name: 'tapir_get_routes', arguments: {}})).isError).toBeFalsy()
      await s.sim.restartIsolate()
      expect((await client.callTool({name: 'tapir_get_routes', arguments: {}})).isError).toBeFalsy()
      const second = await startSim()
      writeFileSync(s.state, JSON.stringify({vmServiceUri: second.httpUri, device: 'sim', pid: null}))
      const routes = await client.callTool({name: 'tapir_get_routes', arguments: {}})
      expect(routes.isError).toBeFalsy()
      expect(second.requests.some((request) => request.method === 'ext.tapir.get_routes')).toBe(true)
      await second.close()
      const gone = await client.callTool({name: 'tapir_get_routes', arguments: {}})
      expect(gone.isError).toBe(true)
      expect(textOf(gone)).not.toContain(second.token)
    } finally {
      await client.close()
      await s.close()
    }
  })
})

describe('tapir mcp:serve on the wire', () => {
  it('leaves promptly when stdin closes after a request was cancelled', async () => {
    const s = await simSession()
    s.sim.setFaults({hangOn: 'ext.tapir.snap'})
    const messages = [
      {
        jsonrpc: '2.0',
        id: 1,
        method: 'initialize',
        params: {protocolVersion: '2025-06-18', capabilities: {}, clientInfo: {name: 'raw', version: '0'}},
      },
      {jsonrpc: '2.0', method: 'notifications/initialized'},
      {jsonrpc: '2.0', id: 2, method: 'tools/call', params: {name: 'tapir_snap', arguments: {}}},
      {jsonrpc: '2.0', method: 'notifications/cancelled', params: {requestId: 2, reason: 'user gave up'}},
    ]
    const started = Date.now()
    const result = await execa(process.execPath, [BIN, 'mcp:serve', '--state', s.state], {
      input: messages.map((message) => JSON.stringify(message)).join('\n') + '\n',
      reject: false,
      env: {NODE_ENV: 'production'},
      timeout: 20_000,
    })
    await s.close()
    expect(result.exitCode).toBe(0)
    expect(Date.now() - started).toBeLessThan(10_000)
  })

  it('writes nothing but JSON-RPC lines to stdout', async () => {
    const s = await simSession()
    const messages = [
      {
        jsonrpc: '2.0',
        id: 1,
        method: 'initialize',
        params: {protocolVersion: '2025-06-18', capabilities: {}, clientInfo: {name: 'raw', version: '0'}},
      },
      {jsonrpc: '2.0', method: 'notifications/initialized'},
      {jsonrpc: '2.0', id: 2, method: 'tools/list'},
      {jsonrpc: '2.0', id: 3, method: 'tools/call', params: {name: 'tapir_snap', arguments: {}}},
      {jsonrpc: '2.0', id: 4, method: 'tools/call', params: {name: 'tapir_tap', arguments: {ref: 'e404'}}},
      {jsonrpc: '2.0', id: 5, method: 'tools/call', params: {name: 'tapir_nope', arguments: {}}},
    ]
    const server = execa(process.execPath, [BIN, 'mcp:serve', '--state', s.state], {
      input: messages.map((message) => JSON.stringify(message)).join('\n') + '\n',
      reject: false,
      env: {NODE_ENV: 'production'},
    })
    const {stdout, stderr, exitCode} = await server
    await s.close()
    expect(exitCode).toBe(0)
    const lines = stdout.split('\n').filter((line) => line !== '')
    expect(lines).toHaveLength(5)
    for (const line of lines) expect(JSON.parse(line)).toMatchObject({jsonrpc: '2.0'})
    expect(lines.map((line) => JSON.parse(line).id).sort()).toEqual([1, 2, 3, 4, 5])
    expect(stderr).toContain('[tapir mcp]')
  })
})

describe('tapir mcp:serve survives size and malformed input', () => {
  it('answers a 20 MB request line with a JSON-RPC error, then answers the next call', async () => {
    const s = await simSession()
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [BIN, 'mcp:serve', '--state', s.state],
      env: {...process.env, NODE_ENV: 'production'} as Record<string, string>,
      stderr: 'pipe',
    })
    let stderr = ''
    transport.stderr!.on('data', (chunk) => (stderr += String(chunk)))
    const client = new McpTestClient()
    await client.connect(transport)
    try {
      const huge = client.callTool({name: 'tapir_fill', arguments: {ref: 'e2', text: 'x'.repeat(20_000_000)}})
      await expect(huge).rejects.toThrow(/-32600.*Request too large: 19\.\d MiB on one line, over the 10 MiB/)
      const next = await client.callTool({name: 'tapir_get_routes', arguments: {}})
      expect(next.isError).toBeFalsy()
      expect(JSON.parse(textOf(next))).toMatchObject({uri: '/login'})
    } finally {
      await client.close()
      await s.close()
    }
    expect(stderr).toMatch(/\[tapir mcp\] stopped: /)
  }, 60_000)

  it('answers lines that are not JSON, not JSON-RPC, or have bad params with -32700, -32600, -32602 and keeps serving', async () => {
    const s = await simSession()
    const lines = [
      JSON.stringify({
        jsonrpc: '2.0',
        id: 1,
        method: 'initialize',
        params: {protocolVersion: '2025-06-18', capabilities: {}, clientInfo: {name: 'raw', version: '0'}},
      }),
      JSON.stringify({jsonrpc: '2.0', method: 'notifications/initialized'}),
      '{"jsonrpc": "2.0", "id": 2, "method": "tools/list"',
      JSON.stringify({jsonrpc: '2.0', id: 3, method: 42}),
      JSON.stringify([1, 2, 3]),
      JSON.stringify({jsonrpc: '2.0', id: 4, method: 'tools/call', params: {arguments: {}}}),
      JSON.stringify({jsonrpc: '2.0', id: 5, method: 'tools/call', params: {name: 'tapir_get_routes', arguments: {}}}),
    ]
    const result = await execa(process.execPath, [BIN, 'mcp:serve', '--state', s.state], {
      input: lines.join('\n') + '\n',
      reject: false,
      env: {NODE_ENV: 'production'},
      timeout: 20_000,
    })
    await s.close()
    expect(result.exitCode).toBe(0)
    const answers = result.stdout
      .split('\n')
      .filter((line) => line !== '')
      .map((line) => JSON.parse(line))
    const errors = answers.filter((answer) => answer.error).map((answer) => [answer.id, answer.error.code])
    expect(errors).toEqual([
      [null, -32700],
      [3, -32600],
      [null, -32600],
      [4, -32602],
    ])
    expect(answers.find((answer) => answer.id === 5)).toMatchObject({
      result: {content: [{type: 'text', text: expect.stringContaining('/login')}]},
    })
    expect(result.stderr).toContain('[tapir mcp] stopped: stdin ended')
  })

  it('turns a 50 MB snapshot into an isError result naming its size and how to narrow it', async () => {
    const s = await simSession({app: () => createMonitorsApp({monitorNames: ['API', 'Web', 'x'.repeat(50_000_000)]})})
    const client = await connect(s.state)
    try {
      await signIn(s)
      const result = await client.callTool({name: 'tapir_snap', arguments: {}})
      expect(result.isError).toBe(true)
      expect(messageOf(result)).toMatch(
        /^The tapir_snap result is (\d+\.\d) MiB, over the 6\.0 MiB an MCP result may take here .*grep, within or interactiveOnly/,
      )
      expect(Number(/is (\d+\.\d) MiB/.exec(messageOf(result))![1])).toBeGreaterThan(47)
      expect(errorOf(result).error).toMatchObject({exitCode: 1})
      const narrowed = await client.callTool({name: 'tapir_snap', arguments: {grep: 'Web'}})
      expect(narrowed.isError).toBeFalsy()
      expect(JSON.parse(textOf(narrowed)).snapshot).toContain('button "Web"')
    } finally {
      await client.close()
      await s.close()
    }
    // 50 MB made, sent, parsed and measured twice: 44 s alone at a load average of 18.
  }, 150_000)
})
