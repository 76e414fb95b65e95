import type {Client} from '@modelcontextprotocol/sdk/client/index.js'
import {afterAll, beforeAll, describe, expect, it} from 'vitest'
import {flutterProject} from '../helpers/flutter-project.js'
import {expectNoProcessLeft} from '../helpers/leftovers.js'
import {mcpClientIn} from '../helpers/mcp.js'
import {letFramesStart, MEASURED_SIGN_IN_STEPS} from '../helpers/sim.js'

// console, exceptions and perf on an app with no package read the history DDS keeps of the VM
// Service's streams. tapir_start's `dds` keeps DDS, on a device and on the sim alike, so an
// agent with only MCP gets them; the CLI's `--dds` means the same.

type Answer = {isError?: boolean; content: Array<{type: string; text?: string}>}
const textOf = (result: Answer) => result.content.find((block) => block.type === 'text')!.text!

/** Whether `argv` holds `flag` followed by `value` (the sim takes its options as two words). */
const hasOption = (argv: string[], flag: string, value: string) => argv.some((part, at) => part === flag && argv[at + 1] === value)

expectNoProcessLeft()

/** An MCP server over a fresh project with the fake flutter on its PATH, and no session yet. */
function mcpProject() {
  const p = flutterProject()
  let client: Client | undefined
  const connect = async () => {
    client = await mcpClientIn(p)
  }
  const call = async (name: string, args: object = {}) =>
    (await client!.callTool({name, arguments: args as Record<string, unknown>}, undefined, {timeout: 120_000})) as Answer
  const close = async () => {
    if (client) {
      await call('tapir_stop')
      await client.close()
    }
    await p.run(['stop'])
    p.dir.remove()
  }
  return {p, connect, call, close}
}

describe('an agent with only MCP keeps DDS with tapir_start, on the sim with no package', () => {
  const m = mcpProject()
  beforeAll(() => m.connect())
  afterAll(() => m.close())

  it('reads the console and measures frames, all through MCP', async () => {
    const started = await m.call('tapir_start', {device: 'sim', faults: ['package=none'], dds: true})
    expect(started.isError, textOf(started)).toBeFalsy()
    const session = m.p.session()!
    expect(session.startArgs).toEqual(['--device=sim', '--dds', '--fault=package=none'])
    expect(hasOption(session.processes.app!.argv, '--mode', 'dds'), session.processes.app!.argv.join(' ')).toBe(true)
    expect(JSON.parse(textOf(await m.call('tapir_status')))).toMatchObject({answering: true, tapir: false})

    const begin = await m.call('tapir_perf_begin', {mode: 'timing'})
    expect(begin.isError, textOf(begin)).toBeFalsy()
    expect(JSON.parse(textOf(begin))).toMatchObject({sessionToken: 'perf-1', mode: 'timing'})
    const run = await m.call('tapir_run', {
      steps: MEASURED_SIGN_IN_STEPS,
    })
    expect(run.isError, textOf(run)).toBeFalsy()
    await letFramesStart()
    const end = await m.call('tapir_perf_end')
    expect(end.isError, textOf(end)).toBeFalsy()
    const report = JSON.parse(textOf(end)) as {refused: boolean; mode: string; summary: {frames: {painted: number}}}
    expect(report).toMatchObject({refused: false, mode: 'timing', counters: null})
    expect(report.summary.frames.painted).toBeGreaterThanOrEqual(5)

    const console = await m.call('tapir_console')
    expect(console.isError, textOf(console)).toBeFalsy()
    const {logs, count} = JSON.parse(textOf(console)) as {logs: Array<Record<string, string>>; count: number}
    expect(count).toBe(logs.length)
    expect(logs).toContainEqual(expect.objectContaining({level: 'INFO', message: 'Signed in as ada@example.com', logger: 'stdout'}))
    const exceptions = await m.call('tapir_exceptions')
    expect(exceptions.isError, textOf(exceptions)).toBeFalsy()
    expect(JSON.parse(textOf(exceptions))).toMatchObject({exceptions: expect.any(Array)})
  })
})

describe('without DDS, an agent with only MCP is told the MCP way to keep it', () => {
  const m = mcpProject()
  beforeAll(() => m.connect())
  afterAll(() => m.close())

  it('console, exceptions and perf_begin name tapir_start with dds: true', async () => {
    const started = await m.call('tapir_start', {device: 'sim', faults: ['package=none']})
    expect(started.isError, textOf(started)).toBeFalsy()
    expect(hasOption(m.p.session()!.processes.app!.argv, '--mode', 'vm')).toBe(true)
    for (const [tool, verb] of [
      ['tapir_console', 'console'],
      ['tapir_exceptions', 'exceptions'],
      ['tapir_perf_begin', 'perf_begin'],
    ] as const) {
      const refused = await m.call(tool)
      expect(refused.isError, tool).toBe(true)
      const [line, json] = textOf(refused).split('\n')
      expect(line).toBe(
        `${verb} on an app with no package reads the debug service's stream history, which only DDS keeps: run the app with DDS (tapir_start with dds: true, on a device or the sim; flutter run keeps it by default, for tapir_attach), or run tapir install.`,
      )
      expect(JSON.parse(json!)).toMatchObject({error: {message: line, exitCode: 1}})
    }
  })
})

describe("tapir_start's dds on a real device: flutter run keeps DDS", () => {
  const m = mcpProject()
  beforeAll(() => m.connect())
  afterAll(() => m.close())

  it('leaves out --no-dds only when asked, and records --dds for restart', async () => {
    const plain = await m.call('tapir_start', {device: 'linux'})
    expect(plain.isError, textOf(plain)).toBeFalsy()
    expect(m.p.session()!.processes.app!.argv).toContain('--no-dds')
    expect((await m.call('tapir_stop')).isError).toBeFalsy()
    const kept = await m.call('tapir_start', {device: 'linux', dds: true})
    expect(kept.isError, textOf(kept)).toBeFalsy()
    const session = m.p.session()!
    expect(session.processes.app!.argv).not.toContain('--no-dds')
    expect(session.startArgs).toEqual(['--device=linux', '--dds'])
  })
})

describe('the CLI: --dds keeps DDS in front of the sim too', () => {
  it('runs the sim behind DDS unless --mode says otherwise, also after a restart, and refuses a mode with none', async () => {
    const p = flutterProject()
    try {
      const contradiction = await p.run(['start', '--device=sim', '--dds', '--mode=vm'])
      expect(contradiction).toMatchObject({
        exitCode: 1,
        stdout: '',
        stderr: '✗ --dds keeps DDS in front of the sim, which --mode=vm leaves out: give one of them.',
      })
      expect(p.session()).toBeUndefined()
      const started = await p.run(['start', '--device=sim', '--package=none', '--dds'])
      expect(started.exitCode, started.stderr).toBe(0)
      expect(hasOption(p.session()!.processes.app!.argv, '--mode', 'dds')).toBe(true)
      const console = await p.run(['tapir:console', '--json'])
      expect(console, console.stderr).toMatchObject({exitCode: 0, stderr: ''})
      expect(JSON.parse(console.stdout)).toMatchObject({logs: expect.any(Array)})
      // restart replays the recorded --dds: the sim comes back behind DDS.
      const restarted = await p.run(['restart'])
      expect(restarted.exitCode, restarted.stderr).toBe(0)
      expect(p.session()!.startArgs).toEqual(['--device=sim', '--dds', '--fault=package=none'])
      expect(hasOption(p.session()!.processes.app!.argv, '--mode', 'dds')).toBe(true)
      expect((await p.run(['tapir:console'])).exitCode).toBe(0)
    } finally {
      await p.run(['stop'])
      p.dir.remove()
    }
  })
})
