import {join} from 'node:path'
import {afterAll, afterEach, beforeAll, describe, expect, it} from 'vitest'
import {VERBS} from '../../src/lib/verbs/index.js'
import {sessionFile, tapir, tempDir} from '../helpers/cli.js'
import {type Answers, type HostileVm, hostileVm} from '../helpers/hostile-vm.js'
import {mcpClient} from '../helpers/mcp.js'

type ToolResult = {content: Array<{text: string}>; isError?: boolean}

/** Words of a JavaScript TypeError leaking out instead of a message about the app. */
const LEAKED_TYPE_ERROR = /Unexpected error|Cannot read properties|is not iterable|is not a function|undefined|\[object Object\]/

describe('malformed answers from the app', () => {
  let vm: HostileVm
  let answers: Answers = () => undefined
  const dir = tempDir()
  let state: string
  const snap = () => tapir(['tapir:snap', '--state', state, '--timeout=5000'])
  beforeAll(async () => {
    vm = await hostileVm((method, params) => answers(method, params))
    state = sessionFile(dir.path, vm.httpUri)
  })
  afterEach(() => {
    answers = () => undefined
  })
  afterAll(async () => {
    await vm.close()
    dir.remove()
  })

  it.each([
    ['a string', {result: 'boom'}, 'its result is a string ("boom") where a JSON object belongs'],
    ['an array', {result: [1, 2]}, 'its result is an array ([1,2]) where a JSON object belongs'],
    ['null', {result: null}, 'its result is null where a JSON object belongs'],
    ['no result at all', {result: undefined}, 'its result is nothing where a JSON object belongs'],
    ['an error that is not an object', {error: 'boom'}, 'its error is a string ("boom"), not a JSON-RPC error object with a numeric code'],
    [
      'an error without a numeric code',
      {error: {code: '-32000', message: 'x'}},
      'its error is an object ({"code":"-32000","message":"x"}), not a JSON-RPC error object with a numeric code',
    ],
  ] as const)('an extension answering with %s exits 3 naming what was malformed and where', async (_kind, answer, what) => {
    answers = (method) => (method === 'ext.tapir.snap' ? answer : undefined)
    const result = await snap()
    expect(result).toMatchObject({exitCode: 3, stdout: '', stderr: `✗ The app sent a malformed answer to ext.tapir.snap: ${what}.`})
  })

  it.each([
    ['getVM', {result: {type: 'VM', isolates: 'main'}}, 'getVM: its isolates are a string ("main"), not a list'],
    ['getVM', {result: {type: 'VM', isolates: [null]}}, 'getVM: it lists an isolate without a string id: null'],
    ['getVM', {result: null}, 'getVM: its result is null where a JSON object belongs'],
    [
      'getIsolate',
      {result: {type: 'Isolate', id: 'isolates/1', extensionRPCs: 5}},
      'getIsolate(isolates/1): its extensionRPCs are a number (5), not a list of method names',
    ],
    ['getIsolate', {result: {type: 'Isolate', extensionRPCs: []}}, 'getIsolate(isolates/1): its id is nothing, not a string'],
    ['getIsolate', {result: ['Isolate']}, 'getIsolate: its result is an array (["Isolate"]) where a JSON object belongs'],
  ] as const)('%s answering %j exits 3 naming the field', async (method, answer, what) => {
    answers = (called) => (called === method ? answer : undefined)
    const result = await snap()
    expect(result).toMatchObject({exitCode: 3, stdout: '', stderr: `✗ The app sent a malformed answer to ${what}.`})
  })

  it('a frame that is JSON but not an object fails the waiting call with exit 3', async () => {
    answers = (method) => (method === 'ext.tapir.snap' ? {raw: '42'} : undefined)
    const result = await snap()
    expect(result).toMatchObject({
      exitCode: 3,
      stderr: '✗ ext.tapir.snap was answered with a frame that is a number (42), not a JSON-RPC message.',
    })
  })

  it('a frame over the payload limit is reported as too large, not as the app exiting', async () => {
    answers = (method) => (method === 'ext.tapir.snap' ? {oversizeBytes: 200 * 1024 * 1024} : undefined)
    const result = await snap()
    expect(result.exitCode).toBe(3)
    expect(result.stderr).toBe(
      '✗ The VM Service connection closed before ext.tapir.snap answered (the app sent a message larger than 100 MB, more than tapir accepts; ask for less (snap --grep, --within, --interactiveOnly or --depth)).',
    )
  })

  it('an evaluate answer with fields of the wrong type reads as a message, not a TypeError', async () => {
    answers = (method) => (method === 'evaluate' ? {result: {type: '@Error', message: 42}} : undefined)
    const result = await tapir(['tapir:evaluate', '--expression=1', '--state', state])
    expect(result).toMatchObject({exitCode: 3, stderr: '✗ The expression threw: 42'})
  })

  it('status reads a version without numbers as unknown, not "undefined.undefined"', async () => {
    answers = (method) => (method === 'getVersion' ? {result: {type: 'Version', major: 'four'}} : undefined)
    const result = await tapir(['status', '--state', state])
    expect(result.exitCode).toBe(0)
    expect(result.stdout).not.toContain('undefined')
    expect(JSON.parse(result.stdout)).toMatchObject({answering: true, tapir: true})
  })

  it('no verb turns result fields of the wrong type into a TypeError', async () => {
    const poisons = [
      {
        warnings: 5,
        renderErrors: {count: 'x', recent: 7},
        effect: null,
        snapshot: 5,
        summary: 'x',
        insights: 'abc',
        base64: 5,
        traceEvents: 'x',
        value: null,
      },
      {
        warnings: null,
        renderErrors: {recent: [null, 5, 'x']},
        effect: 'x',
        summary: {frames: null, budgetMs: 'x'},
        insights: [null, 5],
        refused: true,
        matched: 'yes',
      },
    ]
    // Only verbs the app answers are swept (not Chrome's, nor local ones); close_app may only be the last step.
    const inApp = VERBS.filter((verb) => verb.dispatch.startsWith('ext.tapir.') || verb.dispatch.startsWith('vm:'))
    const verbs = [...inApp.filter((verb) => verb.name !== 'close_app'), ...inApp.filter((verb) => verb.name === 'close_app')]
    const steps = verbs.map((verb) => {
      const flags = verb.params
        .filter((param) => param.required)
        .map((param) => {
          if (param.name === 'output' || param.name === 'out') return `--${param.name}=${join(dir.path, `${verb.name}.out`)}`
          return `--${param.name}=${param.options?.[0] ?? 'x'}`
        })
      return [
        verb.name,
        ...flags,
        ...(verb.name === 'find' || verb.name === 'wait' ? ['--text=x'] : []),
        ...(verb.name === 'navigate' ? ['--route=/x'] : []),
      ].join(' ')
    })
    for (const poison of poisons) {
      answers = (method) => (method.startsWith('ext.tapir.') || method === 'evaluate' ? {result: poison} : undefined)
      const result = await tapir(['tapir:run', '--continue', '--json', ...steps, '--state', state])
      expect(result.stdout, result.stderr).not.toBe('')
      const report = JSON.parse(result.stdout) as {steps: Array<{step: string; output: string}>}
      expect(report.steps, result.stdout).toHaveLength(verbs.length)
      for (const step of report.steps) expect(step.output, step.step).not.toMatch(LEAKED_TYPE_ERROR)
    }
  })

  it('over MCP, a non-object result is an isError naming it, not "null"', async () => {
    const client = await mcpClient(state)
    try {
      for (const [value, shown] of [
        [null, 'null'],
        ['boom', 'a string ("boom")'],
        [undefined, 'nothing'],
      ] as const) {
        answers = (method) => (method === 'ext.tapir.get_routes' ? {result: value} : undefined)
        const result = (await client.callTool({name: 'tapir_get_routes', arguments: {}})) as ToolResult
        expect(result.isError).toBe(true)
        const message = `The app sent a malformed answer to ext.tapir.get_routes: its result is ${shown} where a JSON object belongs.`
        expect(result.content[0]!.text).toBe(`${message}\n${JSON.stringify({error: {message, exitCode: 3}})}`)
      }
    } finally {
      await client.close()
    }
  })
})
