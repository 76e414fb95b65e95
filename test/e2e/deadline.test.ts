import type {Client} from '@modelcontextprotocol/sdk/client/index.js'
import {StdioClientTransport} from '@modelcontextprotocol/sdk/client/stdio.js'
import {afterAll, beforeAll, describe, expect, it} from 'vitest'
import {BIN, sessionFile, tapir, tempDir} from '../helpers/cli.js'
import {type HostileVm, hostileVm} from '../helpers/hostile-vm.js'
import {McpTestClient} from '../helpers/mcp.js'

type ToolResult = {content: Array<{text: string}>; isError?: boolean}

async function mcpClient(state: string, timeout?: number): Promise<Client> {
  const args = [BIN, 'mcp:serve', '--state', state, ...(timeout ? [`--timeout=${timeout}`] : [])]
  const transport = new StdioClientTransport({
    command: process.execPath,
    args,
    env: {...process.env, NODE_ENV: 'production'} as Record<string, string>,
    stderr: 'pipe',
  })
  const client = new McpTestClient()
  await client.connect(transport)
  return client
}

const TEN_ISOLATES = Array.from({length: 10}, (_, index) => ({type: '@Isolate', id: `isolates/${index + 1}`, name: `worker${index}`}))

describe('one overall deadline per verb', () => {
  let vm: HostileVm
  const dir = tempDir()
  let state: string
  beforeAll(async () => {
    // Ten isolates, none with tapir, each taking 400 ms to describe itself.
    vm = await hostileVm((method, params) => {
      if (method === 'getVM') return {result: {type: 'VM', isolates: TEN_ISOLATES}}
      if (method === 'getIsolate') return {result: {type: 'Isolate', id: params.isolateId, extensionRPCs: []}, delayMs: 400}
      return undefined
    })
    state = sessionFile(dir.path, vm.httpUri)
  })
  afterAll(async () => {
    await vm.close()
    dir.remove()
  })

  it('an app with ten slow isolates fails the verb once --timeout has passed, not ten times later', async () => {
    const started = Date.now()
    const result = await tapir(['tapir:snap', '--timeout=1000', '--state', state])
    const elapsed = Date.now() - started
    expect(result).toMatchObject({exitCode: 3, stdout: ''})
    expect(result.stderr).toBe(
      '✗ getIsolate got no answer within 1000 ms. The app may be paused at a breakpoint or busy; resume it, or raise --timeout.',
    )
    expect(elapsed).toBeLessThan(3000) // per call, it took 10 × 400 ms and then some
    // Nothing is sent once the deadline has passed.
    expect(vm.requests.filter((request) => request.method === 'getIsolate').length).toBeLessThanOrEqual(3)
  })

  it('over MCP, the tool call fails with isError once --timeout has passed', async () => {
    const client = await mcpClient(state, 1000)
    try {
      const started = Date.now()
      const result = (await client.callTool({name: 'tapir_snap', arguments: {}})) as ToolResult
      expect(Date.now() - started).toBeLessThan(2500)
      expect(result.isError).toBe(true)
      expect(result.content[0]!.text).toContain('got no answer within 1000 ms')
    } finally {
      await client.close()
    }
  })
})

describe('a verb that waits in the app', () => {
  it('is never sent once finding the isolate used up --timeout, so a tap that happened is never reported failed', async () => {
    const vm = await hostileVm((method, params) => {
      if (method === 'getIsolate') return {result: {type: 'Isolate', id: params.isolateId, extensionRPCs: ['ext.tapir.tap']}, delayMs: 700}
      if (method === 'ext.tapir.tap') return {result: {tapped: true, untilMatched: true}, delayMs: 2000}
      return undefined
    })
    const dir = tempDir()
    try {
      const result = await tapir([
        'tapir:tap',
        '--ref=e1',
        '--until=Done',
        '--untilTimeoutMs=2000',
        '--timeout=500',
        '--state',
        sessionFile(dir.path, vm.httpUri),
      ])
      expect(result).toMatchObject({exitCode: 3, stdout: ''})
      expect(result.stderr).toBe(
        '✗ getIsolate got no answer within 500 ms. The app may be paused at a breakpoint or busy; resume it, or raise --timeout.',
      )
      expect(vm.requests.map((request) => request.method)).not.toContain('ext.tapir.tap')
    } finally {
      await vm.close()
      dir.remove()
    }
  })
})

describe('timeouts of 2^31 ms or more', () => {
  let vm: HostileVm
  const dir = tempDir()
  let state: string
  beforeAll(async () => {
    vm = await hostileVm((method) => {
      if (method === 'ext.tapir.tap') return {result: {tapped: true, untilMatched: true, effect: {changed: true}}, delayMs: 300}
      return undefined
    })
    state = sessionFile(dir.path, vm.httpUri)
  })
  afterAll(async () => {
    await vm.close()
    dir.remove()
  })

  it('tap --until with the longest timeout a timer holds reports the tap that happened', async () => {
    const result = await tapir(['tapir:tap', '--ref=e1', '--until=Done', '--untilTimeoutMs=2147483647', '--state', state])
    expect(result.stderr).toBe('')
    expect(result.exitCode).toBe(0)
    expect(JSON.parse(result.stdout)).toMatchObject({tapped: true, untilMatched: true})
    const huge = await tapir(['tapir:wait', '--text=Done', '--timeout=2147483647', '--state', state])
    expect(huge.stderr).not.toContain('got no answer')
  })

  it.each([
    [
      ['tapir:tap', '--ref=e1', '--until=Done', '--untilTimeoutMs=2147483648'],
      '✗ --untilTimeoutMs must be at most 2147483647 (got 2147483648).',
    ],
    [['tapir:wait', '--text=Done', '--timeoutMs=2147483648'], '✗ --timeoutMs must be at most 2147483647 (got 2147483648).'],
    [['tapir:wait_for_network_idle', '--idleMs=9999999999'], '✗ --idleMs must be at most 2147483647 (got 9999999999).'],
    [['tapir:wait_for_network_idle', '--pollIntervalMs=2147483648'], '✗ --pollIntervalMs must be at most 2147483647 (got 2147483648).'],
    [['tapir:snap', '--timeout=2147483648'], '✗ --timeout must be at most 2147483647 ms, about 24.8 days (got 2147483648).'],
    [['tapir:run', '--timeout=2147483648', 'snap'], '✗ --timeout must be at most 2147483647 ms, about 24.8 days (got 2147483648).'],
    [['status', '--timeout=2147483648'], '✗ --timeout must be at most 2147483647 ms, about 24.8 days (got 2147483648).'],
  ])('%j is refused with exit 1 before anything is sent', async (args, message) => {
    const before = vm.requests.length
    const result = await tapir([...args, '--state', state])
    expect(result).toMatchObject({exitCode: 1, stdout: '', stderr: message})
    expect(vm.requests.length).toBe(before)
  })

  it('mcp:serve refuses such a --timeout with exit 1 and the usual ✗ line', async () => {
    const result = await tapir(['mcp:serve', '--timeout=2147483648', '--state', state])
    expect(result).toMatchObject({
      exitCode: 1,
      stdout: '',
      stderr: '✗ --timeout must be at most 2147483647 ms, about 24.8 days (got 2147483648).',
    })
  })

  it('over MCP, such a timeoutMs is an isError result and nothing reaches the app', async () => {
    const client = await mcpClient(state)
    try {
      const before = vm.requests.length
      for (const [name, args] of [
        ['tapir_wait_for', {text: 'Done', timeoutMs: 2 ** 31}],
        ['tapir_tap', {ref: 'e1', until: 'Done', untilTimeoutMs: 2 ** 40}],
        ['tapir_wait_for_network_idle', {idleMs: 2 ** 31}],
      ] as const) {
        const result = (await client.callTool({name, arguments: args})) as ToolResult
        expect(result.isError, name).toBe(true)
        expect(result.content[0]!.text).toMatch(/must be at most 2147483647/)
      }
      expect(vm.requests.length).toBe(before)
    } finally {
      await client.close()
    }
  })
})

describe('mcp:serve parse errors', () => {
  it('are one ✗ line naming the help, exit 1, like every other command', async () => {
    const result = await tapir(['mcp:serve', '--bogus'])
    expect(result).toMatchObject({exitCode: 1, stdout: '', stderr: '✗ Nonexistent flag: --bogus. See `tapir mcp:serve --help`.'})
  })
})
