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
    ['an array', {result: [1, 2]}, 'its result is a list ([1,2]) where a JSON object belongs'],
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
    ['getVM', {result: {type: 'VM', isolates: 'main'}}, 'getVM: its isolates is a string ("main"), not a list'],
    ['getVM', {result: {type: 'VM', isolates: [null]}}, 'getVM: its isolates[0] is null, not an isolate reference with a string id'],
    ['getVM', {result: null}, 'getVM: its result is null where a JSON object belongs'],
    [
      'getIsolate',
      {result: {type: 'Isolate', id: 'isolates/1', extensionRPCs: 5}},
      'getIsolate(isolates/1): its extensionRPCs is a number (5), not a list of method names',
    ],
    ['getIsolate', {result: {type: 'Isolate', extensionRPCs: []}}, 'getIsolate(isolates/1): its id is nothing, not a string'],
    ['getIsolate', {result: ['Isolate']}, 'getIsolate: its result is a list (["Isolate"]) where a JSON object belongs'],
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

  it('an evaluate answer with a field of the wrong type is a malformed answer naming it, not a TypeError', async () => {
    answers = (method) => (method === 'evaluate' ? {result: {type: '@Error', message: 42}} : undefined)
    const result = await tapir(['tapir:evaluate', '--expression=1', '--state', state])
    expect(result).toMatchObject({
      exitCode: 3,
      stderr: '✗ The app sent a malformed answer to evaluate: its message is a number (42), not a string.',
    })
  })

  // Every verb the app answers, each step given an answer with one field of the wrong type (or a
  // required one missing): the step exits 3 naming the method and the field.
  const WRONG_SHAPES: Array<{step: string; method: string; answer: Record<string, unknown>; field: string}> = [
    {step: 'snap', method: 'snap', answer: {snapshot: 5}, field: 'snapshot is a number (5), not a string'},
    {step: 'observe', method: 'observe', answer: {candidates: 'x'}, field: 'candidates is a string ("x"), not a list'},
    {step: 'find --text=x', method: 'find', answer: {matched: 'yes'}, field: 'matched is a string ("yes"), not a boolean'},
    {step: 'get_routes', method: 'get_routes', answer: {uri: 5}, field: 'uri is a number (5), not a string or null'},
    {step: 'console', method: 'console', answer: {logs: {}}, field: 'logs is an object ({}), not a list'},
    {step: 'exceptions', method: 'exceptions', answer: {exceptions: [5]}, field: 'exceptions[0] is a number (5), not an object'},
    {step: 'tap --ref=e1', method: 'tap', answer: {effect: {changed: 'x'}}, field: 'effect.changed is a string ("x"), not a boolean'},
    {step: 'hover --ref=e1', method: 'hover', answer: {ref: 5}, field: 'ref is a number (5), not a string'},
    {step: 'dblclick --ref=e1', method: 'dblclick', answer: {ref: []}, field: 'ref is a list ([]), not a string'},
    {step: 'right_click --ref=e1', method: 'right_click', answer: {ref: true}, field: 'ref is a boolean (true), not a string'},
    {step: 'triple_click --ref=e1', method: 'triple_click', answer: {ref: null}, field: 'ref is null, not a string'},
    {step: 'drag --startRef=e1 --endRef=e2', method: 'drag', answer: {startRef: 5}, field: 'startRef is a number (5), not a string'},
    {
      step: 'type --ref=e1 --text=x',
      method: 'type',
      answer: {effect: {verified: 'no'}},
      field: 'effect.verified is a string ("no"), not a boolean',
    },
    {step: 'fill --ref=e1 --text=x', method: 'fill', answer: {effect: 'x'}, field: 'effect is a string ("x"), not an object'},
    {step: 'clear --ref=e1', method: 'clear', answer: {effect: {value: 5}}, field: 'effect.value is a number (5), not a string or null'},
    {step: 'focus --ref=e1', method: 'focus', answer: {focused: 'x'}, field: 'focused is a string ("x"), not a boolean'},
    {step: 'blur', method: 'blur', answer: {hadFocus: 1}, field: 'hadFocus is a number (1), not a boolean'},
    {step: 'press_key --key=Enter', method: 'press_key', answer: {key: 5}, field: 'key is a number (5), not a string'},
    {step: 'scroll', method: 'scroll', answer: {effect: {before: 'top'}}, field: 'effect.before is a string ("top"), not a number or null'},
    {
      step: 'select_option --ref=e1 --value=x',
      method: 'select_option',
      answer: {effect: {verified: 1}},
      field: 'effect.verified is a number (1), not a boolean',
    },
    {
      step: 'set_checkbox --ref=e1 --value=true',
      method: 'set_checkbox',
      answer: {effect: {after: 'on'}},
      field: 'effect.after is a string ("on"), not a boolean or null',
    },
    {step: 'navigate --route=/x', method: 'navigate', answer: {navigated: 'x'}, field: 'navigated is a string ("x"), not a boolean'},
    {step: 'navigate_back', method: 'navigate_back', answer: {popped: 'x'}, field: 'popped is a string ("x"), not a boolean'},
    {step: 'dismiss_modals', method: 'dismiss_modals', answer: {popped: 1.5}, field: 'popped is a number (1.5), not an integer'},
    {step: 'reset_overlays', method: 'reset_overlays', answer: {escaped: 'x'}, field: 'escaped is a string ("x"), not a boolean'},
    {step: 'wait --text=x', method: 'wait_for', answer: {}, field: 'matched is nothing, not a boolean'},
    {
      step: 'wait_for_network_idle',
      method: 'wait_for_network_idle',
      answer: {matched: 'x'},
      field: 'matched is a string ("x"), not a boolean',
    },
    {step: 'perf_begin', method: 'perf_begin', answer: {sessionToken: 5}, field: 'sessionToken is a number (5), not a string'},
    {
      step: 'perf_end',
      method: 'perf_end',
      answer: {summary: {frames: {count: 1, painted: 'x', dropped: 0, overBudget: 0}}},
      field: 'summary.frames.painted is a string ("x"), not a number',
    },
    {step: 'perf_insight --id=I1', method: 'perf_insight', answer: {title: 5}, field: 'title is a number (5), not a string'},
    {
      step: 'perf_trace --out=OUT/trace.json',
      method: 'perf_trace',
      answer: {traceEvents: 'x'},
      field: 'traceEvents is a string ("x"), not a list',
    },
    {step: 'screenshot --output=OUT/shot.png', method: 'screenshot', answer: {format: 'png'}, field: 'base64 is nothing, not a string'},
    // Last: it ends the app.
    {step: 'close_app', method: 'close_app', answer: {closed: 'x'}, field: 'closed is a string ("x"), not a boolean'},
  ]

  it('every verb the app answers refuses a wrong-shaped answer with exit 3, naming the method and the field', async () => {
    const answered = VERBS.filter((verb) => verb.dispatch.startsWith('ext.tapir.')).map((verb) => verb.dispatch.slice('ext.tapir.'.length))
    expect(new Set(WRONG_SHAPES.map((row) => row.method))).toEqual(new Set(answered))
    answers = (method) => {
      const row = WRONG_SHAPES.find((candidate) => `ext.tapir.${candidate.method}` === method)
      return row ? {result: row.answer} : undefined
    }
    const steps = WRONG_SHAPES.map((row) => row.step.replace('OUT', dir.path))
    const result = await tapir(['tapir:run', '--continue', '--json', ...steps, '--state', state])
    const report = JSON.parse(result.stdout) as {steps: Array<{step: string; exitCode: number; output: string}>}
    expect(report.steps.map(({exitCode, output}) => ({exitCode, output}))).toEqual(
      WRONG_SHAPES.map((row) => ({exitCode: 3, output: `✗ The app sent a malformed answer to ext.tapir.${row.method}: its ${row.field}.`})),
    )
  })

  it('the notes any answer may carry are checked too: a warnings block that is not an object', async () => {
    answers = (method) => (method === 'ext.tapir.snap' ? {result: {snapshot: '- text "x"', warnings: 5}} : undefined)
    expect(await snap()).toMatchObject({
      exitCode: 3,
      stdout: '',
      stderr: '✗ The app sent a malformed answer to ext.tapir.snap: its warnings is a number (5), not an object.',
    })
  })

  it('hot_reload_and_snap checks the snapshot it reads after the reload', async () => {
    const service = {kind: 'ServiceRegistered', service: 'reloadSources', method: 's0.reloadSources', alias: 'Flutter Tools'}
    answers = (method) => {
      if (method === 'streamListen') return {result: {type: 'Success'}, events: [{streamId: 'Service', event: {type: 'Event', ...service}}]}
      if (method === 's0.reloadSources') return {result: {type: 'Success'}}
      return method === 'ext.tapir.snap' ? {result: {snapshot: ['- text']}} : undefined
    }
    const result = await tapir(['tapir:hot_reload_and_snap', '--state', state])
    expect(result).toMatchObject({
      exitCode: 3,
      stderr: '✗ The app sent a malformed answer to ext.tapir.snap: its snapshot is a list (["- text"]), not a string.',
    })
  })

  it('over MCP, a wrong-shaped answer is an isError naming the field', async () => {
    const client = await mcpClient(state)
    try {
      answers = (method) => (method === 'ext.tapir.tap' ? {result: {effect: {changed: 'x'}}} : undefined)
      const result = (await client.callTool({name: 'tapir_tap', arguments: {ref: 'e1'}})) as ToolResult
      expect(result.isError).toBe(true)
      expect(result.content[0]!.text).toMatch(
        /^The app sent a malformed answer to ext\.tapir\.tap: its effect\.changed is a string \("x"\), not a boolean\.\n\{"error"/,
      )
    } finally {
      await client.close()
    }
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
