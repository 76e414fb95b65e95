import {existsSync, writeFileSync} from 'node:fs'
import {join} from 'node:path'
import type {Client} from '@modelcontextprotocol/sdk/client/index.js'
import type {Progress} from '@modelcontextprotocol/sdk/types.js'
import {afterAll, beforeAll, describe, expect, it} from 'vitest'
import {mcpClient} from '../helpers/mcp.js'
import {simSession, type SimSession} from '../helpers/sim.js'

type Content = Array<{type: string; text: string}>
const textOf = (result: unknown) => (result as {content: Content}).content[0]!.text

/** A scenario of a few seconds a repeat: hot restart, sign in, scroll. */
const SCENARIO = `name: slow
platforms: [sim]
setup:
  - hot_restart
  - fill: {target: {key: email}, text: ada@example.com}
  - fill: {target: {key: password}, text: hunter22}
  - tap: {target: {key: signIn}}
  - wait_for_text: Monitors
steps:
  - scroll: {target: {text: API}, dy: 400}
`

describe('tapir mcp:serve: progress, order and cancellation', () => {
  let s: SimSession
  let client: Client
  beforeAll(async () => {
    s = await simSession({flutterTool: true})
    writeFileSync(join(s.dir, 'slow.yaml'), SCENARIO)
    client = await mcpClient(s.state)
  })
  afterAll(async () => {
    await client.close()
    expect(s.sim.violations).toEqual([])
    await s.close()
  })

  it('sends notifications/progress for each perf_run repeat when the call sent a progressToken', async () => {
    const heard: Progress[] = []
    const result = await client.callTool(
      {name: 'tapir_perf_run', arguments: {scenario: join(s.dir, 'slow.yaml'), repeat: 2, out: join(s.dir, 'perf'), json: true}},
      undefined,
      {onprogress: (progress) => heard.push(progress), timeout: 120_000},
    )
    expect(result.isError, textOf(result)).toBeFalsy()
    expect(heard.map((progress) => progress.message)).toEqual([
      expect.stringMatching(/^repeat 1\/2 \(attribution\) \.\.\. \d+ painted frames$/),
      expect.stringMatching(/^repeat 2\/2 \(attribution\) \.\.\. \d+ painted frames$/),
    ])
    expect(heard.map((progress) => progress.progress)).toEqual([1, 2])
  }, 120_000)

  it('sends progress while a wait longer than 2 s runs, and none without a token', async () => {
    const heard: Progress[] = []
    const waited = await client.callTool({name: 'tapir_wait_for', arguments: {text: 'Nowhere', timeoutMs: 2600}}, undefined, {
      onprogress: (progress) => heard.push(progress),
    })
    expect(JSON.parse(textOf(waited))).toMatchObject({matched: false})
    expect(heard.length).toBeGreaterThanOrEqual(2)
    expect(heard[0]!.message).toBe('tapir_wait_for: 1 s of up to 3 s')
    const quiet: Progress[] = []
    await client.callTool({name: 'tapir_get_routes', arguments: {}}, undefined, {onprogress: (progress) => quiet.push(progress)})
    expect(quiet).toEqual([])
  })

  it('runs 8 calls sent together one at a time, in the order they arrived', async () => {
    s.sim.app.restart()
    const finished: number[] = []
    const calls: Array<[string, Record<string, unknown>]> = [
      ['tapir_wait_for', {text: 'Nowhere', timeoutMs: 600}],
      ['tapir_get_routes', {}],
      ['tapir_navigate', {route: '/settings', includeSnapshot: false}],
      ['tapir_get_routes', {}],
      ['tapir_wait_for', {text: 'Nowhere', timeoutMs: 400}],
      ['tapir_navigate', {route: '/login', includeSnapshot: false}],
      ['tapir_get_routes', {}],
      ['tapir_snap', {interactiveOnly: true}],
    ]
    const results = await Promise.all(
      calls.map(async ([name, args], index) => {
        const result = await client.callTool({name, arguments: args})
        finished.push(index)
        return result
      }),
    )
    expect(finished).toEqual([0, 1, 2, 3, 4, 5, 6, 7])
    expect(results.map((result) => result.isError ?? false)).toEqual(Array(8).fill(false))
    // Each call saw the app as the calls before it left it.
    expect([1, 3, 6].map((index) => JSON.parse(textOf(results[index])).uri)).toEqual(['/login', '/settings', '/login'])
  })

  it('a cancelled wait stops at once, and the next call works', async () => {
    const controller = new AbortController()
    const wait = client.callTool({name: 'tapir_wait_for', arguments: {text: 'Nowhere', timeoutMs: 30_000}}, undefined, {
      signal: controller.signal,
    })
    await new Promise((resolve) => setTimeout(resolve, 500))
    controller.abort('the agent moved on')
    await expect(wait).rejects.toThrow()
    const started = Date.now()
    const next = await client.callTool({name: 'tapir_get_routes', arguments: {}})
    expect(next.isError).toBeFalsy()
    expect(JSON.parse(textOf(next))).toHaveProperty('uri')
    expect(Date.now() - started).toBeLessThan(5000)
  })

  it('a cancelled perf_run stops after the repeat it is in, writes nothing, and the next call works', async () => {
    const controller = new AbortController()
    const out = join(s.dir, 'cancelled')
    const run = client.callTool(
      {name: 'tapir_perf_run', arguments: {scenario: join(s.dir, 'slow.yaml'), repeat: 20, label: 'cancelled', out}},
      undefined,
      {signal: controller.signal, onprogress: () => controller.abort('enough'), timeout: 120_000},
    )
    await expect(run).rejects.toThrow()
    const next = await client.callTool({name: 'tapir_perf_begin', arguments: {}}, undefined, {timeout: 60_000})
    expect(next.isError, textOf(next)).toBeFalsy()
    expect((await client.callTool({name: 'tapir_get_routes', arguments: {}})).isError).toBeFalsy()
    // Stopped for good: no repeat starts (each begins with a hot restart) and no run file comes.
    const restarts = () => s.sim.requests.filter((request) => request.method.endsWith('.hotRestart')).length
    const before = restarts()
    await new Promise((resolve) => setTimeout(resolve, 3000))
    expect(restarts()).toBe(before)
    expect(existsSync(join(out, 'slow-cancelled.json'))).toBe(false)
  }, 120_000)
})
