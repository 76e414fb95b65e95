import type {Client} from '@modelcontextprotocol/sdk/client/index.js'
import {afterAll, beforeAll, describe, expect, it} from 'vitest'
import {CLI_WORDS} from '../helpers/mcp-words.js'
import {mcpClient} from '../helpers/mcp.js'
import {signIn, simSession, type SimSession} from '../helpers/sim.js'

type Content = Array<{type: string; text: string}>
const textOf = (result: unknown) => (result as {content: Content}).content[0]!.text

describe('what an agent reads first, and tapir_run', () => {
  let s: SimSession
  let client: Client
  beforeAll(async () => {
    s = await simSession()
    await signIn(s)
    client = await mcpClient(s.state)
  })
  afterAll(async () => {
    await client.close()
    await s.close()
  })

  it('sends instructions at initialize: how to start, refs and handles, waits, exit codes, in MCP words', () => {
    const instructions = client.getInstructions() ?? ''
    for (const words of ['tapir_start', 'tapir_attach', 'tapir_devices', '[ref=eN]', 'qN', 'tapir_wait_for', 'exitCode'])
      expect(instructions).toContain(words)
    // tapir_run's step lines, given in double quotes, are the one place --name words belong.
    expect(instructions.replace(/"[^"]*"/g, '""')).not.toMatch(CLI_WORDS)
    expect(instructions).toContain('"tap --ref=e5"')
    expect(instructions.split('\n').length).toBeLessThanOrEqual(6)
    expect(Buffer.byteLength(instructions)).toBeLessThan(1500)
  })

  it('tapir_run shows each step once: the last step only in full, after its line', async () => {
    const result = await client.callTool({name: 'tapir_run', arguments: {steps: ['get_routes', 'navigate_back']}})
    expect(result.isError, textOf(result)).toBeFalsy()
    const lines = textOf(result).split('\n')
    expect(lines[0]).toMatch(/^\[1\/2\] get_routes ok: \{"/)
    expect(lines[1]).toBe('[2/2] navigate_back ok:')
    expect(lines.slice(2).join('\n')).toMatch(/^✓ /)
    expect(lines.filter((line) => line.includes('✓ '))).toHaveLength(1)
  })
})
