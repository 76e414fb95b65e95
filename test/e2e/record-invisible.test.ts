import {readFileSync} from 'node:fs'
import {join} from 'node:path'
import {afterAll, describe, expect, it} from 'vitest'
import {tempDir} from '../helpers/cli.js'
import {mcpClient} from '../helpers/mcp.js'
import {simSession, type SimSession} from '../helpers/sim.js'

/** The ext.* methods the app was sent, in order, with their params less the isolate id. */
function appCalls(s: SimSession): Array<{method: string; params: Record<string, unknown>}> {
  return s.sim.requests
    .filter((request) => request.method.startsWith('ext.'))
    .map(({method, params}) => {
      const {isolateId: _isolateId, ...rest} = params
      return {method, params: rest}
    })
}

/** The README's quick start, then a stale and a foreign handle and the whole screen. */
const QUICK_START = [
  ['tapir:snap', '--interactiveOnly'],
  ['tapir:fill', '--ref=e2', '--text=ada@example.com'],
  ['tapir:fill', '--ref=e3', '--text=hunter22'],
  ['tapir:find', '--key=signIn'],
  ['tapir:tap', '--ref=q1'],
  ['tapir:snap', '--interactiveOnly'],
  ['tapir:run', 'find --text=Web', 'tap --ref=q2', "wait --text='Status: up'", 'navigate_back'],
  ['tapir:observe'],
  ['tapir:navigate', '--route=/settings'],
  ['tapir:tap', '--ref=q2'],
  ['tapir:tap', '--ref=q40'],
  ['tapir:run', 'fill --ref=q2 --text=hunter22'],
  ['tapir:snap'],
]

/** What a person sees of a command, but for what differs on every run (times). */
const seen = ({stdout, stderr, exitCode}: {stdout: string; stderr: string; exitCode: number}) => ({
  exitCode,
  stdout: stdout.replace(/after \d+ ms/g, 'after N ms'),
  stderr,
})

/** Each test spawns a few dozen CLI processes: on a loaded machine that takes a while. */
const SLOW = 240_000

let scratch: {path: string; remove(): void} | undefined
const scratchDir = () => (scratch ??= tempDir('tapir-record-')).path
afterAll(() => scratch?.remove())

describe('a recording is invisible to the session it records', () => {
  it(
    'the quick start prints the same, byte for byte, with tapir record start on before it and without',
    async () => {
      const outputs: Array<Array<ReturnType<typeof seen>>> = []
      const calls: Array<ReturnType<typeof appCalls>> = []
      const file = join(scratchDir(), 'quick-start.tapir')
      for (const recording of [false, true]) {
        const s = await simSession()
        try {
          if (recording) expect((await s.spawn(['record', 'start', file])).exitCode).toBe(0)
          const run: Array<ReturnType<typeof seen>> = []
          for (const args of QUICK_START) run.push(seen(await s.spawn(args)))
          outputs.push(run)
          calls.push(appCalls(s))
          if (recording) expect((await s.spawn(['record', 'stop'])).exitCode).toBe(0)
        } finally {
          await s.close()
        }
      }
      const [off, on] = outputs
      expect(on).toEqual(off)
      // The recorder asked the app nothing: the app was sent the same calls.
      expect(calls[1]).toEqual(calls[0])
      // The quick start's own answers, so the comparison is not of two equal failures.
      expect(off![3]!.stdout).toContain('"ref": "q1"')
      expect(off![4]).toEqual({exitCode: 0, stdout: '✓ Tapped q1', stderr: ''})
      // A stale handle and one no find made fail alike, and are not recorded.
      expect(off![9]!.exitCode).toBe(3)
      expect(off![10]!.exitCode).toBe(3)
      expect(off![11]!.exitCode).toBe(3)
      const text = readFileSync(file, 'utf8')
      // Every action of the quick start is a step: the fields named from the snapshot it saw
      // (interactiveOnly: by observe, which counts only nodes with a role), the button by its find.
      expect(text).toContain('observe --roles=textbox --as=email --label=Email\nfill --ref=@email --text=ada@example.com\n')
      expect(text).toContain(
        'observe --roles=textbox --as=password --label=Password\nfill --ref=@password --text=${env.TAPIR_SECRET_PASSWORD}\n',
      )
      expect(text).toContain('find --key=signIn --as=signin\ntap --ref=@signin\n')
      expect(text).not.toMatch(/not replayable|not written/)
      expect(text).not.toContain('hunter22')
    },
    SLOW,
  )

  it(
    'every MCP answer is the same with mcp:serve --record and without',
    async () => {
      const answers: string[][] = []
      for (const record of [[], ['--record', join(scratchDir(), 'mcp.tapir')]]) {
        const s = await simSession()
        const client = await mcpClient(s.state, record)
        try {
          const call = async (name: string, args: Record<string, unknown> = {}) => {
            const result = (await client.callTool({name, arguments: args})) as {content: Array<{text: string}>; isError?: boolean}
            const text = result.content[0]!.text.replace(/after \d+ ms/g, 'after N ms').replace(
              /"groupId":"snapshot-\d+"/g,
              '"groupId":"…"',
            )
            return `${result.isError === true ? 'error ' : ''}${text}`
          }
          answers.push([
            await call('tapir_snap', {interactiveOnly: true}),
            await call('tapir_fill', {ref: 'e2', text: 'ada@example.com'}),
            await call('tapir_fill', {ref: 'e3', text: 'hunter22'}),
            await call('tapir_find', {key: 'signIn'}),
            await call('tapir_tap', {ref: 'q1'}),
            await call('tapir_observe', {roles: 'button'}),
            await call('tapir_tap', {ref: 'q5'}),
            await call('tapir_navigate_back'),
            await call('tapir_run', {steps: ['find --text=Web', 'tap --ref=q9', 'navigate_back']}),
            await call('tapir_tap', {ref: 'q77'}),
            await call('tapir_snap'),
          ])
        } finally {
          await client.close()
          await s.close()
        }
      }
      expect(answers[1]).toEqual(answers[0])
      expect(answers[0]![3]).toContain('"ref":"q1"')
      expect(answers[0]![9]).toMatch(/^error /)
      const text = readFileSync(join(scratchDir(), 'mcp.tapir'), 'utf8')
      expect(text).toContain('fill --ref=@password --text=${env.TAPIR_SECRET_PASSWORD}\n')
      // q5 was observed on the screen the tap's own snapshot showed: find; q9 after navigate_back: observe.
      expect(text).toContain('find --semanticsLabel=API --as=api\ntap --ref=@api\n')
      expect(text).toContain('observe --roles=button --as=db --label=DB\ntap --ref=@db\n')
      expect(text).not.toMatch(/not replayable|not written|hunter22/)
    },
    SLOW,
  )

  it(
    'on Dusk 0.0.1 asks the app nothing either, and names the widgets from the snapshot the session saw',
    async () => {
      const file = join(scratchDir(), 'dusk.tapir')
      const s = await simSession({package: 'dusk'})
      try {
        expect((await s.spawn(['record', 'start', file])).exitCode).toBe(0)
        const snapshot = (await s.spawn(['tapir:snap'])).stdout
        const before = appCalls(s).length
        const email = /textbox "Email"[^\n]*\[ref=(e\d+)\]/.exec(snapshot)![1]!
        const password = /textbox "Password"[^\n]*\[ref=(e\d+)\]/.exec(snapshot)![1]!
        expect((await s.spawn(['tapir:type', `--ref=${email}`, '--text=ada@example.com'])).exitCode).toBe(0)
        expect((await s.spawn(['tapir:type', `--ref=${password}`, '--text=hunter22'])).exitCode).toBe(0)
        expect((await s.spawn(['tapir:find', '--key=signIn'])).exitCode).toBe(0)
        expect((await s.spawn(['tapir:tap', '--ref=q1'])).exitCode).toBe(0)
        // Only the verbs' own calls went to the app.
        expect(
          appCalls(s)
            .slice(before)
            .map((call) => call.method),
        ).toEqual(['ext.dusk.type', 'ext.dusk.type', 'ext.dusk.find', 'ext.dusk.tap'])
        expect((await s.spawn(['record', 'stop'])).exitCode).toBe(0)
      } finally {
        await s.close()
      }
      const text = readFileSync(file, 'utf8')
      expect(text).toContain('# app package: dusk\n')
      expect(text).toContain('find --semanticsLabel=Email --as=email\ntype --ref=@email --text=ada@example.com\n')
      expect(text).toContain('find --semanticsLabel=Password --as=password\ntype --ref=@password --text=${env.TAPIR_SECRET_PASSWORD}\n')
      expect(text).toContain('find --key=signIn --as=signin\ntap --ref=@signin\n')
      expect(text).not.toContain('hunter22')
    },
    SLOW,
  )
})
