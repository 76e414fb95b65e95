import {readFileSync} from 'node:fs'
import {join} from 'node:path'
import {afterAll, describe, expect, it} from 'vitest'
import {Recorder} from '../../src/lib/record/recorder.js'
import {startRecordingFile} from '../../src/lib/record/recording-file.js'
import {memoryStore, newRecordingState} from '../../src/lib/record/state.js'
import {verbNamed} from '../../src/lib/verbs/index.js'
import type {Input, VerbCall} from '../../src/lib/verbs/types.js'
import type {AppConnection} from '../../src/lib/vm/app-connection.js'
import {Deadline} from '../../src/lib/vm/deadline.js'
import {tempDir} from '../helpers/cli.js'

interface FakeWidget {
  ref: string
  id: string
  role: string
  label: string
  key?: string
  obscured?: boolean
  textField?: boolean
}

/** An app whose trace-free lookup answers from a list of widgets: a ref by its name, a find's
 *  predicates by matching keys and labels (the first match is find's pick). */
function appWith(widgets: FakeWidget[]): AppConnection {
  const describe = (w: FakeWidget) => ({
    id: w.id,
    role: w.role,
    label: w.label,
    value: null,
    bounds: {x: 0, y: 0, w: 10, h: 10},
    textField: w.textField === true,
    obscured: w.obscured === true,
    ...(w.key ? {key: w.key} : {}),
  })
  const app = {
    registers: () => Promise.resolve(true),
    appPackage: () => Promise.resolve('tapir'),
    callExtension: (verb: string, params: Record<string, string>) => {
      if (verb !== 'lookup') throw new Error(`the recorder called ${verb}`)
      const view = {width: 400, height: 800, devicePixelRatio: 2}
      if (params.ref !== undefined) {
        const widget = widgets.find((w) => w.ref === params.ref)
        return Promise.resolve({view, widget: widget ? describe(widget) : null})
      }
      const matching = widgets.filter((w) =>
        params.key !== undefined
          ? w.key === params.key
          : params.semanticsLabel !== undefined || params.text !== undefined
            ? w.label === (params.semanticsLabel ?? params.text)
            : params.contains !== undefined && w.label.includes(params.contains),
      )
      if (Object.keys(params).length === 0) return Promise.resolve({view})
      return Promise.resolve({view, matchCount: matching.length, widget: matching[0] ? describe(matching[0]) : null})
    },
  }
  return app as unknown as AppConnection
}

let scratch: {path: string; remove(): void} | undefined
afterAll(() => scratch?.remove())
let files = 0

/** Records the calls against `widgets` and gives back the file's step and comment lines. */
async function recorded(widgets: FakeWidget[], calls: Array<[verb: string, input: Input, extra?: Partial<VerbCall>]>): Promise<string> {
  scratch ??= tempDir('tapir-recorder-')
  const state = newRecordingState(join(scratch.path, `flow-${++files}.tapir`), '0.0.0')
  startRecordingFile(state)
  const recorder = new Recorder(memoryStore(state))
  const app = appWith(widgets)
  for (const [name, input, extra] of calls) {
    const verb = verbNamed(name)!
    const call = {
      app: () => Promise.resolve(app),
      deadline: new Deadline(5000, 0),
      cwd: '.',
      timeoutMs: 5000,
      ...extra,
    } as unknown as VerbCall
    const commit = await recorder.begin(verb, input, call)
    await commit?.({ref: input.ref, effect: {kind: 'text', verified: true}})
  }
  return readFileSync(state.file, 'utf8')
}

describe('secrets never reach the recording', () => {
  it.each([
    ['PIN', 'TAPIR_SECRET_PIN'],
    ['Passcode', 'TAPIR_SECRET_PASSCODE'],
    ['API token', 'TAPIR_SECRET_API_TOKEN'],
    ['Client secret', 'TAPIR_SECRET_CLIENT_SECRET'],
  ])('text typed into a field labelled %j, not obscured, is written as ${env.%s}', async (label, variable) => {
    const text = await recorded([{ref: 'e1', id: 'node:1', role: 'textbox', label, textField: true}], [['fill', {ref: 'e1', text: '4711'}]])
    expect(text).not.toContain('4711')
    expect(text).toContain(`fill --ref=@`)
    expect(text).toContain(`--text=\${env.${variable}}\n`)
    expect(text).toContain(`# replay needs: ${variable} `)
  })

  it('text from ${env.NAME} is written as written, into whatever field it went', async () => {
    const text = await recorded(
      [{ref: 'e1', id: 'node:1', role: 'textbox', label: 'Email', key: 'email', textField: true}],
      [['fill', {ref: 'e1', text: 's3cr3t'}, {envWords: [['--text=s3cr3t', '--text=${env.MY_PW}']]}]],
    )
    expect(text).not.toContain('s3cr3t')
    expect(text).toContain('find --key=email --as=email\nfill --ref=@email --text=${env.MY_PW}\n')
    expect(text).toContain('# from CLI tapir:fill --ref=@email --text=${env.MY_PW}\n')
  })
})

describe('a widget label with control characters', () => {
  it('is written terminal-safe: comments escape it, and no step holds it raw', async () => {
    const label = 'Pay\u001b]0;owned\u0007 now'
    const text = await recorded(
      [
        {ref: 'e1', id: 'node:1', role: 'button', label},
        {ref: 'e2', id: 'node:2', role: 'button', label: 'Pay later'},
        {ref: 'e3', id: 'node:3', role: 'button', label: 'Refunds\u009b2J all'},
      ],
      [
        ['tap', {ref: 'e1'}],
        ['tap', {ref: 'e3'}],
      ],
    )
    // eslint-disable-next-line no-control-regex -- what must not be in the file
    expect(text).not.toMatch(/[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/)
    // The longest run free of control characters that matches the button alone.
    expect(text).toContain("find --contains=']0;owned' --as=pay_0_owned_now\ntap --ref=@pay_0_owned_now\n")
    expect(text).toContain('find --contains=Refunds --as=refunds_2j_all\n')
  })
})
