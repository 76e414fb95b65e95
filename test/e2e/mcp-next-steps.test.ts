import {createServer, type Server} from 'node:net'
import {dirname} from 'node:path'
import {afterAll, beforeAll, describe, expect, it} from 'vitest'
import {flutterProject} from '../helpers/flutter-project.js'
import {expectNoProcessLeft} from '../helpers/leftovers.js'
import {CLI_WORDS} from '../helpers/mcp-words.js'
import type {McpTestClient} from '../helpers/mcp.js'
import {mcpClient, mcpClientIn} from '../helpers/mcp.js'
import {simSession, type SimSession} from '../helpers/sim.js'

// What an agent with only MCP reads when something is missing or mistyped: every next step is a
// tool and its arguments, never a CLI command or flag, and a typo gets what was meant.

type Answer = {isError?: boolean; content: Array<{type: string; text?: string}>}
const textOf = (result: Answer) => result.content.find((block) => block.type === 'text')!.text!
const messageOf = (result: Answer) => textOf(result).split('\n').slice(0, -1).join('\n')

expectNoProcessLeft()

describe('MCP answers name tools, not CLI commands, and say what a typo meant', () => {
  const p = flutterProject()
  let client: McpTestClient
  let busy: Server
  const call = async (name: string, args: object = {}) =>
    (await client.callTool({name, arguments: args as Record<string, unknown>}, undefined, {timeout: 120_000})) as Answer

  beforeAll(async () => {
    // No flutter anywhere on PATH: only node's own folder.
    client = await mcpClientIn(p, {PATH: `${dirname(process.execPath)}:/nonexistent`})
    busy = createServer()
    await new Promise<void>((resolve) => busy.listen(0, '127.0.0.1', resolve))
  })
  afterAll(async () => {
    await call('tapir_stop')
    await client.close()
    busy.close()
    p.dir.remove()
  })

  it('tapir_doctor words each next step as a tool', async () => {
    const doctor = JSON.parse(textOf(await call('tapir_doctor'))) as {checks: Array<{name: string; detail: string}>}
    expect(doctor.checks.map((check) => check.name)).toEqual(['project', 'session'])
    for (const check of doctor.checks) expect(check.detail).not.toMatch(CLI_WORDS)
    expect(doctor.checks[0]!.detail).toMatch(/run tapir install in a terminal in the project \(no MCP tool installs the package\)$/)
    expect(doctor.checks[1]!.detail).toMatch(
      /: call tapir_start \(device "sim", or an id from tapir_devices\) or tapir_attach with the VM Service URI$/,
    )
  })

  it('tapir_attach on an app that does not answer points at tapir_status', async () => {
    const attached = JSON.parse(textOf(await call('tapir_attach', {uri: 'http://127.0.0.1:9/abc=/'}))) as {
      answering: boolean
      error: string
    }
    expect(attached.answering).toBe(false)
    expect(attached.error).toMatch(/Is the app still running\? Check with tapir_status\.$/)
    expect(attached.error).not.toMatch(/`tapir status`/)
    await call('tapir_stop')
  })

  it('tapir_start on a busy CDP port asks for another cdpPort', async () => {
    const port = (busy.address() as {port: number}).port
    const result = await call('tapir_start', {device: 'sim', cdpPort: port})
    expect(result.isError).toBe(true)
    // Without a Chrome on this machine that is said first; with one, the port.
    expect(messageOf(result)).toMatch(
      new RegExp(`^(CDP port ${port} is already in use; give another cdpPort, or free it\\.|No Chrome or Chromium found .*)$`),
    )
  })

  it('tapir_start with no flutter points at device "sim", and a typo of sim gets what was meant', async () => {
    const linux = await call('tapir_start', {device: 'linux'})
    expect(linux.isError).toBe(true)
    expect(messageOf(linux)).toMatch(
      /^No flutter on PATH\. .* Or try tapir with no Flutter: tapir_start with device "sim" runs the simulated app\.$/,
    )
    const typo = await call('tapir_start', {device: 'simm'})
    expect(messageOf(typo)).toBe('device "simm" is not a device tapir knows, and there is no flutter to ask. Did you mean device "sim"?')
  })

  it('tapir_run: a mistyped verb gets what was meant, and a bad step is answered in MCP words', async () => {
    expect(messageOf(await call('tapir_run', {steps: ['snapp']}))).toBe(
      'step 1 (snapp): unknown verb "snapp". Did you mean snap? A step is a tool\'s name without tapir_, then its arguments as --name=value words (tap, fill, snap, ...).',
    )
    expect(JSON.parse(textOf(await call('tapir_start', {device: 'sim'})))).toMatchObject({pid: expect.any(Number)})
    const bad = textOf(await call('tapir_run', {steps: ['snap --interactivOnly']}))
    expect(bad).toContain(
      "✗ Nonexistent flag: --interactivOnly (did you mean --interactiveOnly?). The step's words are tapir_snap's parameters in tools/list, each as --name=value.",
    )
    expect(bad).not.toMatch(/tapir:|--help/)
  })
})

describe('a failed call says what to do next', () => {
  let s: SimSession
  let client: Awaited<ReturnType<typeof mcpClient>>
  const call = async (name: string, args: object = {}) =>
    (await client.callTool({name, arguments: args as Record<string, unknown>})) as Answer
  beforeAll(async () => {
    s = await simSession()
    client = await mcpClient(s.state)
    await call('tapir_snap')
  })
  afterAll(async () => {
    await client.close()
    await s.close()
  })

  it('a failed tapir_expect ends with the error object docs/mcp.md promises', async () => {
    const result = await call('tapir_expect', {text: 'Nope', timeoutMs: 200})
    expect(result.isError).toBe(true)
    const lines = textOf(result).split('\n')
    expect(JSON.parse(lines[0]!)).toMatchObject({passed: false, saw: 'no such widget'})
    expect(JSON.parse(lines[1]!)).toEqual({
      error: {message: expect.stringMatching(/^Expected a widget with text "Nope" within \d+ ms; saw no such widget\.$/), exitCode: 1},
    })
  })

  it('tapir_set_checkbox and tapir_fill on a button say what it is and which tool fits, with no extension name', async () => {
    const checkbox = await call('tapir_set_checkbox', {ref: 'e4', value: 'true'})
    expect(messageOf(checkbox)).toBe(
      'ref e4 has no checked or toggled state. It is not a checkbox, switch or radio: pick one of those from tapir_snap, or call tapir_tap to press this widget.',
    )
    expect(textOf(checkbox)).not.toContain('ext.tapir')
    expect(messageOf(await call('tapir_fill', {ref: 'e4', text: 'x'}))).toBe(
      'ref e4 is a button, not a text field. fill types into a text field (a textbox in tapir_snap); to press this one, call tapir_tap.',
    )
  })
})
