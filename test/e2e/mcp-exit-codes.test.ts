import {join} from 'node:path'
import type {Client} from '@modelcontextprotocol/sdk/client/index.js'
import {afterAll, beforeAll, describe, expect, it} from 'vitest'
import {tapir} from '../helpers/cli.js'
import {mcpClient} from '../helpers/mcp.js'
import {simSession, type SimSession} from '../helpers/sim.js'

type Content = Array<{type: string; text: string}>
type ErrorObject = {error: {message: string; exitCode: number; envelope?: {type?: string}}}
const errorOf = (result: unknown): ErrorObject =>
  JSON.parse((result as {content: Content}).content[0]!.text.split('\n').at(-1)!) as ErrorObject

/** One failure, as a CLI line (its flags) and as an MCP call (its arguments). */
type Failure = {what: string; cli: string[]; tool: string; args: Record<string, unknown>; exitCode: 1 | 3; envelope?: string}

const FAILURES: Failure[] = [
  {
    what: 'an unknown ref (the app answers not found)',
    cli: ['tapir:tap', '--ref=e999'],
    tool: 'tapir_tap',
    args: {ref: 'e999'},
    exitCode: 3,
    envelope: 'not_found',
  },
  {
    what: 'a network that never settles (a soft failure)',
    cli: ['tapir:wait_for_network_idle', '--timeoutMs=300'],
    tool: 'tapir_wait_for_network_idle',
    args: {timeoutMs: 300},
    exitCode: 1,
    envelope: 'timeout',
  },
  {
    what: 'a route without its slash',
    cli: ['tapir:navigate', '--route=settings'],
    tool: 'tapir_navigate',
    args: {route: 'settings'},
    exitCode: 1,
  },
  {what: 'a wait with no condition', cli: ['tapir:wait'], tool: 'tapir_wait_for', args: {}, exitCode: 1},
  {
    what: 'a poll interval under its minimum',
    cli: ['tapir:wait_for_network_idle', '--pollIntervalMs=50'],
    tool: 'tapir_wait_for_network_idle',
    args: {pollIntervalMs: 50},
    exitCode: 1,
  },
  {
    what: 'a Chrome verb with no Chrome',
    cli: ['tapir:resize', '--width=375', '--height=812'],
    tool: 'tapir_resize_viewport',
    args: {width: 375, height: 812},
    exitCode: 1,
  },
  {
    what: 'a run file that is not there',
    cli: ['tapir:perf_compare', 'nope-a.json', 'nope-b.json'],
    tool: 'tapir_perf_compare',
    args: {a: 'nope-a.json', b: 'nope-b.json'},
    exitCode: 1,
  },
]

describe('one failure, one exit code: the CLI with --json and the MCP error object agree', () => {
  let s: SimSession
  let client: Client
  beforeAll(async () => {
    s = await simSession()
    client = await mcpClient(s.state)
  })
  afterAll(async () => {
    await client.close()
    await s.close()
  })

  for (const failure of FAILURES) {
    it(`${failure.what}: exit ${failure.exitCode} on both`, async () => {
      const cli = await s.run([...failure.cli, '--json'])
      const mcp = await client.callTool({name: failure.tool, arguments: failure.args})
      expect(mcp.isError).toBe(true)
      const printed = JSON.parse(cli.stdout) as ErrorObject
      expect({cli: cli.exitCode, json: printed.error.exitCode, mcp: errorOf(mcp).error.exitCode}).toEqual({
        cli: failure.exitCode,
        json: failure.exitCode,
        mcp: failure.exitCode,
      })
      expect(errorOf(mcp).error.envelope?.type).toBe(failure.envelope)
      expect(printed.error.envelope?.type).toBe(failure.envelope)
    })
  }

  it('a wait that does not match is a result on both: matched false, the CLI exiting 1', async () => {
    const cli = await s.run(['tapir:wait', '--text=Nowhere', '--timeoutMs=200', '--json'])
    const mcp = await client.callTool({name: 'tapir_wait_for', arguments: {text: 'Nowhere', timeoutMs: 200}})
    expect(cli.exitCode).toBe(1)
    expect(JSON.parse(cli.stdout)).toMatchObject({matched: false})
    expect(mcp.isError).toBeFalsy()
    expect(JSON.parse((mcp as {content: Content}).content[0]!.text)).toMatchObject({matched: false})
  })

  it('no session: exit 1 on both', async () => {
    const state = join(s.dir, 'no-session.json')
    const cli = await tapir(['tapir:snap', '--json', '--state', state])
    const other = await mcpClient(state)
    try {
      const mcp = await other.callTool({name: 'tapir_snap', arguments: {}})
      expect([cli.exitCode, (JSON.parse(cli.stdout) as ErrorObject).error.exitCode, errorOf(mcp).error.exitCode]).toEqual([1, 1, 1])
    } finally {
      await other.close()
    }
  })
})
