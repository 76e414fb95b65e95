import {readFileSync} from 'node:fs'
import {join} from 'node:path'
import {afterAll, describe, expect, it} from 'vitest'
import {Recorder} from '../../src/lib/record/recorder.js'
import {startRecordingFile} from '../../src/lib/record/recording-file.js'
import {memoryStore, newRecordingState} from '../../src/lib/record/state.js'
import {verbNamed} from '../../src/lib/verbs/index.js'
import type {Input, Result, VerbCall} from '../../src/lib/verbs/types.js'
import type {AppConnection} from '../../src/lib/vm/app-connection.js'
import {Deadline} from '../../src/lib/vm/deadline.js'
import {tempDir} from '../helpers/cli.js'

/** An app the recorder may ask only which package it runs (read from the isolate tapir already
 *  found): any extension call fails the test. */
const app = {
  appPackage: () => Promise.resolve('tapir'),
  callExtension: (verb: string) => {
    throw new Error(`the recorder called ext.tapir.${verb}`)
  },
  evaluate: () => {
    throw new Error('the recorder called evaluate')
  },
} as unknown as AppConnection

let scratch: {path: string; remove(): void} | undefined
afterAll(() => scratch?.remove())
let files = 0

type Call = [verb: string, input: Input, result?: Result, extra?: Partial<VerbCall>]

/** Records the calls, each answered with `result` (an action's default: its ref and a text
 *  effect), and gives back the file. */
async function recorded(calls: Call[]): Promise<string> {
  scratch ??= tempDir('tapir-recorder-')
  const state = newRecordingState(join(scratch.path, `flow-${++files}.tapir`), '0.0.0')
  startRecordingFile(state)
  const recorder = new Recorder(memoryStore(state))
  for (const [name, input, result, extra] of calls) {
    const verb = verbNamed(name)!
    const call = {
      app: () => Promise.resolve(app),
      deadline: new Deadline(5000, 0),
      cwd: '.',
      timeoutMs: 5000,
      ...extra,
    } as unknown as VerbCall
    const commit = await recorder.begin(verb, input, call)
    await commit?.(result ?? {ref: input.ref, effect: {kind: 'text', verified: true}})
  }
  return readFileSync(state.file, 'utf8')
}

const snap = (snapshot: string, input: Input = {}): Call => ['snap', input, {snapshot}]

describe('what the session saw names the widget', () => {
  it('a label only one node has: find by it', async () => {
    const text = await recorded([snap('- textbox "Email" [ref=e1]\n  typeable: true\n- button "Go" [ref=e2]\n'), ['tap', {ref: 'e2'}]])
    expect(text).toContain('find --semanticsLabel=Go --as=go\ntap --ref=@go\n')
  })

  it('a label a heading and a button share: find for the button (find picks a control), observe by role for the heading', async () => {
    const screen = '- heading "Sign in" [ref=e1]\n- textbox "Email" [ref=e2]\n- button "Sign in" [ref=e3]\n'
    const text = await recorded([snap(screen), ['tap', {ref: 'e1'}], ['tap', {ref: 'e3'}]])
    expect(text).toContain("observe --roles=heading --as=sign_in --label='Sign in'\ntap --ref=@sign_in\n")
    expect(text).toContain("find --semanticsLabel='Sign in' --as=sign_in_2 --matches=2\ntap --ref=@sign_in_2\n")
  })

  it('the second of several buttons with one label: observe, its place among them', async () => {
    const screen = '- button "Pause" [ref=e1]\n- text "Web"\n- button "Pause" [ref=e2]\n- button "Pause" [ref=e3] [offscreen]\n'
    const text = await recorded([snap(screen), ['tap', {ref: 'e2'}]])
    expect(text).toContain('observe --roles=button --as=pause --label=Pause --nth=2 --matches=3\ntap --ref=@pause\n')
  })

  it('a plain text line with the same label counts for find; interactiveOnly leaves it out, so only observe is exact', async () => {
    const screen = '- text "Go"\n- button "Go" [ref=e1]\n'
    expect(await recorded([snap(screen), ['tap', {ref: 'e1'}]])).toContain('find --semanticsLabel=Go --as=go --matches=2\n')
    const partial = await recorded([snap('- button "Go" [ref=e1]\n', {interactiveOnly: true}), ['tap', {ref: 'e1'}]])
    expect(partial).toContain('observe --roles=button --as=go --label=Go\ntap --ref=@go\n')
  })

  it('a ref seen only in a cut snapshot, or never: not replayable, and no step after it', async () => {
    const text = await recorded([
      snap('- button "Go" [ref=e1]\n', {within: 'e9'}),
      ['tap', {ref: 'e1'}],
      ['navigate', {route: '/settings'}, {navigated: true, route: '/settings'}],
    ])
    expect(text).toContain('# not replayable: e1 was in no snapshot of the whole screen tapir saw last')
    expect(text).not.toMatch(/^tap /m)
    expect(text).not.toMatch(/^navigate /m)
    expect(text).toContain('# after tap on e1, not written: navigate --route=/settings\n')
  })

  it('an observe handle: as the widget on the screen when no action came between, else as observe saw it', async () => {
    const screen = '- button "Pause" [ref=e1]\n- button "Pause" [ref=e2]\n- button "Export" [ref=e3]\n'
    const candidates = {
      candidates: [
        {ref: 'q1', role: 'button', label: 'Pause', value: null},
        {ref: 'q2', role: 'button', label: 'Pause', value: null},
        {ref: 'q3', role: 'button', label: 'Export', value: null},
      ],
    }
    const text = await recorded([
      snap(screen),
      ['observe', {}, candidates],
      ['tap', {ref: 'q3'}],
      ['observe', {}, candidates],
      ['tap', {ref: 'q2'}],
    ])
    expect(text).toContain('find --semanticsLabel=Export --as=export\ntap --ref=@export\n')
    expect(text).toContain('observe --roles=button --as=pause --label=Pause --nth=2 --matches=2\ntap --ref=@pause\n')
  })

  it("a qN from the session's own find keeps its predicates", async () => {
    const text = await recorded([
      ['find', {text: 'Go'}, {ref: 'q1', matched: true, matchCount: 1}],
      ['tap', {ref: 'q1'}],
    ])
    expect(text).toContain('find --text=Go --as=go\ntap --ref=@go\n')
  })
})

describe('secrets never reach the recording', () => {
  it.each([
    ['PIN', 'TAPIR_SECRET_PIN'],
    ['Passcode', 'TAPIR_SECRET_PASSCODE'],
    ['API token', 'TAPIR_SECRET_API_TOKEN'],
    ['Client secret', 'TAPIR_SECRET_CLIENT_SECRET'],
  ])('text typed into a field labelled %j, not obscured, is written as ${env.%s}', async (label, variable) => {
    const text = await recorded([snap(`- textbox "${label}" [ref=e1]\n`), ['fill', {ref: 'e1', text: '4711'}]])
    expect(text).not.toContain('4711')
    expect(text).toContain(`fill --ref=@`)
    expect(text).toContain(`--text=\${env.${variable}}\n`)
    expect(text).toContain(`# replay needs: ${variable} `)
  })

  it("a field whose snapshot value reads as an obscured field's (bullets), before the fill or in its own snapshot", async () => {
    const before = await recorded([snap('- textbox "Code": "••••" [ref=e1]\n'), ['fill', {ref: 'e1', text: 'xyzzy'}]])
    expect(before).not.toContain('xyzzy')
    expect(before).toContain('fill --ref=@code --text=${env.TAPIR_SECRET_CODE}\n')
    const after = await recorded([
      snap('- textbox "Code" [ref=e1]\n'),
      ['fill', {ref: 'e1', text: 'xyzzy'}, {ref: 'e1', snapshot: '- textbox "Code": "*****" [ref=e1]\n'}],
    ])
    expect(after).toContain('fill --ref=@code --text=${env.TAPIR_SECRET_CODE}\n')
  })

  it('a field nothing marks as secret keeps its text, and the header needs nothing', async () => {
    const text = await recorded([snap('- textbox "Email" [ref=e1]\n'), ['fill', {ref: 'e1', text: 'ada@example.com'}]])
    expect(text).toContain('fill --ref=@email --text=ada@example.com\n')
    expect(text).toContain('# replay needs no environment variables\n')
  })

  it('text from ${env.NAME} is written as written, into whatever field it went', async () => {
    const text = await recorded([
      snap('- textbox "Email" [ref=e1]\n'),
      ['fill', {ref: 'e1', text: 's3cr3t'}, undefined, {envWords: [['--text=s3cr3t', '--text=${env.MY_PW}']]}],
    ])
    expect(text).not.toContain('s3cr3t')
    expect(text).toContain('find --semanticsLabel=Email --as=email\nfill --ref=@email --text=${env.MY_PW}\n')
    expect(text).toContain('# from CLI tapir:fill --ref=@email --text=${env.MY_PW}\n')
    expect(text).toContain('# replay needs: MY_PW ')
  })

  it('the header lists only what the steps read: a secret in a step left as a comment is not needed', async () => {
    const text = await recorded([['fill', {ref: 'e7', text: 'hunter22'}]])
    expect(text).not.toContain('hunter22')
    expect(text).toContain('# replay needs no environment variables\n')
  })
})

describe('a widget label with control characters', () => {
  it('is written terminal-safe: comments escape it, and no step holds it raw', async () => {
    const esc = (label: string) => label.replaceAll('\\', '\\\\').replaceAll('"', '\\"')
    const screen = [
      `- button "${esc('Pay\u001b]0;owned\u0007 now')}" [ref=e1]`,
      '- button "Pay later" [ref=e2]',
      `- button "${esc('Refunds\u009b2J all')}" [ref=e3]`,
    ].join('\n')
    const text = await recorded([snap(screen), ['tap', {ref: 'e1'}], ['tap', {ref: 'e3'}]])
    // eslint-disable-next-line no-control-regex -- what must not be in the file
    expect(text).not.toMatch(/[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/)
    // The longest run free of control characters that matches the button alone.
    expect(text).toContain("find --contains=']0;owned' --as=pay_0_owned_now\ntap --ref=@pay_0_owned_now\n")
    expect(text).toContain('find --contains=Refunds --as=refunds_2j_all\n')
  })
})
