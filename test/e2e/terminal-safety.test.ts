import {afterAll, beforeAll, describe, expect, it} from 'vitest'
import {sessionFile, tapir, tempDir} from '../helpers/cli.js'
import {type HostileVm, hostileVm} from '../helpers/hostile-vm.js'
import {mcpClient} from '../helpers/mcp.js'

/** Raw control characters a terminal would act on: C0 but newline, DEL, C1. */
// eslint-disable-next-line no-control-regex -- the test looks for raw control characters
const RAW_CONTROL = /[\u0000-\u0009\u000b-\u001f\u007f-\u009f]/
const TITLE = '\u001b]0;owned\u0007'
const CLEAR = '\u001b[2J\u001b[H'
const C1_CSI = '\u009b31m'
const C1_OSC = '\u009d0;owned\u009c'

const snapshot = `- heading "Monitors${TITLE}" [ref=e1]\n- button "Delete${CLEAR}all" [ref=e2]\n- text "red${C1_CSI}text${C1_OSC}\rover"\n`
const snapResult = {
  snapshot,
  groupId: 'g1',
  renderErrors: {count: 1, recent: [{type: `Overflow${CLEAR}`, message: `by 3px${C1_CSI}\nfake line`}]},
}
const consoleResult = {
  logs: [
    {level: 'INFO', message: `hello${TITLE}${C1_OSC}`},
    {level: 'ERROR', message: 'tab\there\r\nand\u0085next'},
  ],
  count: 2,
}
const tapDetails = JSON.stringify({
  message: `Widget e9${CLEAR} is gone${C1_CSI}\n✓ Tapped e9`,
  envelope: {type: 'stale', suggestions: [`snap${TITLE}`]},
})

describe('text from the app reaches the terminal without its control characters', () => {
  let vm: HostileVm
  const dir = tempDir()
  let state: string
  const run = (args: string[]) => tapir([...args, '--state', state])
  beforeAll(async () => {
    vm = await hostileVm((method) => {
      if (method === 'ext.tapir.snap') return {result: snapResult}
      if (method === 'ext.tapir.console') return {result: consoleResult}
      if (method === 'ext.tapir.tap') return {error: {code: -32000, message: 'Server error', data: {details: tapDetails}}}
      return undefined
    })
    state = sessionFile(dir.path, vm.httpUri)
  })
  afterAll(async () => {
    await vm.close()
    dir.remove()
  })

  it('snap prints the YAML with every control escaped, and the render-error banner on one line each', async () => {
    const result = await run(['tapir:snap'])
    expect(result.exitCode, result.stderr).toBe(0)
    expect(result.stdout).not.toMatch(RAW_CONTROL)
    expect(result.stdout.split('\n')).toEqual([
      '- heading "Monitors\\u001b]0;owned\\u0007" [ref=e1]',
      '- button "Delete\\u001b[2J\\u001b[Hall" [ref=e2]',
      '- text "red\\u009b31mtext\\u009d0;owned\\u009c\\rover"',
    ])
    expect(result.stderr).not.toMatch(RAW_CONTROL)
    expect(result.stderr.split('\n')).toEqual([
      '⚠ 1 render error(s) captured on this screen (run tapir:exceptions for full detail):',
      '  - Overflow\\u001b[2J\\u001b[H: by 3px\\u009b31m\\nfake line',
    ])
  })

  it('snap --json stays exact JSON: no raw control on stdout, and it parses to what the app sent', async () => {
    const result = await run(['tapir:snap', '--json'])
    expect(result.exitCode).toBe(0)
    expect(result.stdout).not.toMatch(RAW_CONTROL)
    expect(JSON.parse(result.stdout)).toEqual(snapResult)
  })

  it("console's JSON keeps log text exact, C1 and CR included", async () => {
    const result = await run(['tapir:console'])
    expect(result.exitCode).toBe(0)
    expect(result.stdout).not.toMatch(RAW_CONTROL)
    expect(JSON.parse(result.stdout)).toEqual(consoleResult)
  })

  it("an app error's details print as one escaped ✗ line; --json keeps the envelope exact", async () => {
    const result = await run(['tapir:tap', '--ref=e9'])
    expect(result.exitCode).toBe(3)
    expect(result.stderr).toBe(
      '✗ Widget e9\\u001b[2J\\u001b[H is gone\\u009b31m\\n✓ Tapped e9. Did you mean: snap\\u001b]0;owned\\u0007? Run tapir:snap (or tapir:find again) for a fresh ref.',
    )
    const json = await run(['tapir:tap', '--ref=e9', '--json'])
    expect(json.stdout).not.toMatch(RAW_CONTROL)
    expect(JSON.parse(json.stdout).error).toMatchObject({
      message: `Widget e9${CLEAR} is gone${C1_CSI}\n✓ Tapped e9`,
      envelope: {suggestions: [`snap${TITLE}`]},
    })
  })

  it('tapir:run prints every step escaped, and its --json stays exact', async () => {
    const result = await run(['tapir:run', '--continue', 'snap', 'tap --ref=e9'])
    expect(result.stdout + result.stderr).not.toMatch(RAW_CONTROL)
    const json = await run(['tapir:run', '--json', 'snap --json'])
    expect(json.stdout).not.toMatch(RAW_CONTROL)
    expect(JSON.parse(JSON.parse(json.stdout).steps[0].output.split('\n')[0])).toEqual(snapResult)
  })

  it('over MCP, tool results and errors carry no raw control and the JSON reads back exactly', async () => {
    const client = await mcpClient(state)
    try {
      const snap = (await client.callTool({name: 'tapir_snap', arguments: {}})) as {content: Array<{text: string}>; isError?: boolean}
      expect(snap.isError).toBeFalsy()
      expect(snap.content[0]!.text).not.toMatch(RAW_CONTROL)
      expect(JSON.parse(snap.content[0]!.text)).toEqual(snapResult)
      const tap = (await client.callTool({name: 'tapir_tap', arguments: {ref: 'e9'}})) as {
        content: Array<{text: string}>
        isError?: boolean
      }
      expect(tap.isError).toBe(true)
      expect(tap.content[0]!.text).not.toMatch(RAW_CONTROL)
    } finally {
      await client.close()
    }
  })
})

describe('text from the app is cut to a sane length where it prints (issue 19, item 8)', () => {
  const LONG = 'y'.repeat(2 * 1024 * 1024)
  let vm: HostileVm
  const dir = tempDir()
  let state: string
  const run = (args: string[]) => tapir([...args, '--state', state])
  beforeAll(async () => {
    vm = await hostileVm((method) => {
      if (method === 'ext.tapir.snap')
        return {result: {snapshot: '- text "ok"\n', renderErrors: {count: 1, recent: [{type: 'Overflow', message: LONG}]}}}
      if (method === 'ext.tapir.tap')
        return {error: {code: -32000, message: 'Server error', data: {details: JSON.stringify({message: LONG, envelope: {type: 'stale'}})}}}
      return undefined
    })
    state = sessionFile(dir.path, vm.httpUri)
  })
  afterAll(async () => {
    await vm.close()
    dir.remove()
  })

  it("an app's 2 MB error is one ✗ line of at most 1000 characters and a count of the rest", async () => {
    const result = await run(['tapir:tap', '--ref=e9'])
    expect(result.exitCode).toBe(3)
    // Cut before what tapir adds: the line still says what to try next.
    expect(result.stderr).toMatch(/^✗ y{900,}… \(\d+ more characters\)\. Run tapir:snap \(or tapir:find again\) for a fresh ref\.$/)
    expect(result.stderr.length).toBeLessThan(1100)
  })

  it("an app's 2 MB render error is a cut warning line, while the result itself is printed whole", async () => {
    const result = await run(['tapir:snap'])
    expect(result.exitCode).toBe(0)
    expect(result.stdout).toBe('- text "ok"')
    const [, entry] = result.stderr.split('\n')
    expect(entry).toMatch(/^ {2}- Overflow: y{1900,}… \(\d+ more characters\)$/)
    expect(entry!.length).toBeLessThan(2100)
  })
})
