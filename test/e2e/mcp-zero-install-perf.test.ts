import type {Client} from '@modelcontextprotocol/sdk/client/index.js'
import {afterAll, beforeAll, describe, expect, it} from 'vitest'
import {flutterProject} from '../helpers/flutter-project.js'
import {expectNoProcessLeft} from '../helpers/leftovers.js'
import {mcpClientIn} from '../helpers/mcp.js'
import {letFramesStart, MEASURED_SIGN_IN_STEPS} from '../helpers/sim.js'

type Answer = {isError?: boolean; content: Array<{type: string; text?: string}>}
const textOf = (result: Answer) => result.content.find((block) => block.type === 'text')!.text!

expectNoProcessLeft()

describe('an agent with only MCP measures frames on a debug app with no package (behind DDS)', () => {
  const p = flutterProject()
  let client: Client
  const call = async (name: string, args: object = {}) =>
    (await client.callTool({name, arguments: args as Record<string, unknown>}, undefined, {timeout: 120_000})) as Answer
  beforeAll(async () => {
    // The CLI starts the sim behind DDS and the MCP server drives that session (tapir_start with
    // dds: true does the same from MCP alone: mcp-zero-install-dds.test.ts).
    const started = await p.run(['start', '--device=sim', '--package=none', '--mode=dds'])
    expect(started.exitCode, started.stderr).toBe(0)
    client = await mcpClientIn(p)
  })
  afterAll(async () => {
    await client.close()
    await p.run(['stop'])
    p.dir.remove()
  })

  it('tapir_perf_begin with no mode opens a timing session; tapir_perf_end reports the sign-in', async () => {
    const attribution = await call('tapir_perf_begin', {mode: 'attribution'})
    expect(attribution.isError).toBe(true)
    expect(textOf(attribution)).toMatch(
      /^tapir_perf_begin with mode: "attribution" profiles builds .*pass mode: "timing" .*tapir install\./,
    )
    const begin = await call('tapir_perf_begin')
    expect(begin.isError, textOf(begin)).toBeFalsy()
    expect(JSON.parse(textOf(begin))).toMatchObject({sessionToken: 'perf-1', mode: 'timing', phases: false})
    const run = await call('tapir_run', {
      steps: MEASURED_SIGN_IN_STEPS,
    })
    expect(run.isError, textOf(run)).toBeFalsy()
    await letFramesStart()
    const end = await call('tapir_perf_end')
    expect(end.isError, textOf(end)).toBeFalsy()
    const report = JSON.parse(textOf(end)) as {
      refused: boolean
      mode: string
      summary: {frames: {painted: number}}
      insights: Array<{id: string}>
    }
    expect(report).toMatchObject({refused: false, mode: 'timing', counters: null})
    expect(report.summary.frames.painted).toBeGreaterThanOrEqual(5)
    const insight = await call('tapir_perf_insight', {id: report.insights[0]!.id, token: 'perf-1'})
    expect(insight.isError, textOf(insight)).toBeFalsy()
    expect(JSON.parse(textOf(insight))).toMatchObject({sessionToken: 'perf-1', id: report.insights[0]!.id, detail: expect.any(Object)})
  })
})
