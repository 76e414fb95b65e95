import {readFileSync} from 'node:fs'
import {join} from 'node:path'
import {afterAll, describe, expect, it} from 'vitest'
import {SEMANTICS_DUMP} from '../../src/lib/vm/zero-install.js'
import {tapir, tempDir} from '../helpers/cli.js'
import {expectNoProcessLeft} from '../helpers/leftovers.js'
import {mcpClient} from '../helpers/mcp.js'
import {simSession, type SimSession} from '../helpers/sim.js'

expectNoProcessLeft()

/** The quick start on an app with no package, each call its own tapir process: a find's qN, and
 *  eNs (semantics ids) read from snapshots, one of them cut to its controls. */
const QUICK_START = [
  ['tapir:snap'],
  ['tapir:find', '--text=Email'],
  ['tapir:fill', '--ref=q1', '--text=ada@example.com'],
  ['tapir:fill', '--ref=e4', '--text=hunter22'],
  ['tapir:tap', '--ref=e6'],
  ['tapir:snap', '--interactiveOnly'],
  ['tapir:tap', '--ref=e14'],
  ['tapir:wait', '--text=Back'],
  ['tapir:snap'],
  ['tapir:tap', '--ref=e70'],
]

/** What the recording holds under its header. */
const STEPS = [
  '# from CLI tapir:fill --ref=@email --text=ada@example.com',
  'find --text=Email --as=email',
  'fill --ref=@email --text=ada@example.com',
  '# from CLI tapir:fill --ref=@password --text=${env.TAPIR_SECRET_PASSWORD}',
  'find --semanticsLabel=Password --as=password',
  'fill --ref=@password --text=${env.TAPIR_SECRET_PASSWORD}',
  '# from CLI tapir:tap --ref=@sign_in',
  '# semanticsLabel "Sign in" matches 2 widgets, and find picks this button "Sign in", the first control of them',
  "find --semanticsLabel='Sign in' --as=sign_in --matches=2",
  'tap --ref=@sign_in',
  '# from CLI tapir:tap --ref=@api',
  '# observe, not find: the snapshot had no plain text lines (interactiveOnly) to count the nodes a find would match',
  'observe --roles=button --as=api --label=API',
  'tap --ref=@api',
  '# from CLI tapir:wait --text=Back',
  'wait --text=Back',
  '# from CLI tapir:tap --ref=@back',
  'find --semanticsLabel=Back --as=back',
  'tap --ref=@back',
]

/** What the app was sent, in order, less the isolate and library ids (which differ between two
 *  sims). The VM Service's own reads of which isolate is the app's (getVM, getIsolate) are left
 *  out: every tapir process makes them, record start and stop too, and the recorder reads the
 *  package an action ran on from them (an app with no package pins no isolate, so they are read
 *  again). A run of semantics dumps counts once: an action polls the tree until it changes
 *  (zero/live.ts `settled`), as often as the time it takes allows. */
const appCalls = (s: SimSession) =>
  s.sim.requests
    .filter((request) => request.method !== 'getVM' && request.method !== 'getIsolate')
    .map(({method, params}) => {
      const {isolateId: _isolateId, targetId: _targetId, ...rest} = params
      return {method, params: rest}
    })
    .filter((call, index, calls) => !(call.method === SEMANTICS_DUMP && calls[index - 1]?.method === SEMANTICS_DUMP))

const seen = ({stdout, stderr, exitCode}: {stdout: string; stderr: string; exitCode: number}) => ({
  exitCode,
  stdout: stdout.replace(/after \d+ ms/g, 'after N ms'),
  stderr,
})

/** Each test spawns a few dozen CLI processes: on a loaded machine that takes a while. */
const SLOW = 240_000

// The recorder names widgets from what the session already got, never by calling the app
// (docs/recording.md): on an app with no package that is the zero-install snapshot, finds and
// observe, and the replay runs zero-install too.
describe('recording a session on an app with no package (--package=none)', () => {
  const project = tempDir('tapir-record-zero-')
  const file = join(project.path, 'quickstart.tapir')
  let recorded: SimSession | undefined
  afterAll(async () => {
    await recorded?.close()
    project.remove()
  })

  it(
    'records the quick start with a qN and eNs, invisibly: same answers, same calls to the app',
    async () => {
      const outputs: Array<Array<ReturnType<typeof seen>>> = []
      const calls: Array<ReturnType<typeof appCalls>> = []
      for (const recording of [false, true]) {
        const s = await simSession({package: 'none', flutterTool: true})
        if (recording) recorded = s
        try {
          if (recording) expect(await s.spawn(['record', 'start', file])).toMatchObject({exitCode: 0, stderr: ''})
          const run: Array<ReturnType<typeof seen>> = []
          for (const args of QUICK_START) run.push(seen(await s.spawn(args)))
          outputs.push(run)
          calls.push(appCalls(s))
          if (recording) {
            const stopped = await s.spawn(['record', 'stop'])
            expect(stopped).toMatchObject({exitCode: 0, stderr: ''})
            expect(stopped.stdout).toContain('Replay needs: TAPIR_SECRET_PASSWORD')
          }
        } finally {
          if (!recording) await s.close()
        }
      }
      const [off, on] = outputs
      expect(on).toEqual(off)
      expect(calls[1]).toEqual(calls[0])
      expect(off!.map((output) => output.exitCode)).toEqual(QUICK_START.map(() => 0))
      expect(off![9]).toEqual({exitCode: 0, stdout: '✓ Tapped e70', stderr: ''})
      const [head, body] = readFileSync(file, 'utf8').split('\n\n') as [string, string]
      expect(head.split('\n').filter((line) => !line.startsWith('# recorded '))).toEqual([
        '# tapir recording: replay with `tapir tapir:run --file <this file>`',
        '# app package: none (driven zero-install)',
        '# replay needs: TAPIR_SECRET_PASSWORD (read from the environment; never written here)',
      ])
      expect(body).toBe(`${STEPS.join('\n')}\n`)
      expect(body).not.toContain('hunter22')
    },
    SLOW,
  )

  it(
    'replays as a tapir test flow (its default --fresh=restart) and through tapir:run on a fresh app',
    async () => {
      const s = recorded!
      const env = {TAPIR_SECRET_PASSWORD: 'hunter22'}
      const test = await tapir(['test', 'quickstart.tapir', '--reporter=list', '--state', s.state], {cwd: project.path, env})
      expect(test.exitCode, test.stdout + test.stderr).toBe(0)
      expect(test.stdout).toMatch(/^✓ quickstart\.tapir \(\d+\.\d\d s\)$/m)
      expect(await s.spawn(['hot-restart'])).toMatchObject({exitCode: 0})
      const run = await s.spawn(['tapir:run', '--file', file], {env})
      expect(run.exitCode, run.stdout + run.stderr).toBe(0)
      expect(run.stdout).toContain('[5/11] find --semanticsLabel=\'Sign in\' --as=sign_in --matches=2 ok: {"matched":true,"ref":"q')
      expect(run.stdout).toMatch(/\[8\/11\] tap --ref=@api ok: ✓ Tapped e14\n/)
      const back = await s.spawn(['tapir:snap', '--interactiveOnly'])
      expect(back.stdout).toContain('- heading "Monitors"')
      // Without the secret the replay stops at the step that reads it.
      const bare = await tapir(['test', 'quickstart.tapir', '--reporter=list', '--state', s.state], {cwd: project.path})
      expect(bare.exitCode).toBe(1)
      expect(bare.stdout + bare.stderr).toContain('TAPIR_SECRET_PASSWORD')
    },
    SLOW,
  )
})

describe('mcp:serve --record on an app with no package', () => {
  it(
    "records an agent's sign-in, and the recording replays on a fresh app",
    async () => {
      const project = tempDir('tapir-record-zero-mcp-')
      const file = join(project.path, 'agent.tapir')
      const s = await simSession({package: 'none'})
      try {
        const client = await mcpClient(s.state, ['--record', file])
        try {
          const call = async (name: string, args: Record<string, unknown> = {}) => {
            const answer = (await client.callTool({name, arguments: args})) as {isError?: boolean; content: Array<{text?: string}>}
            expect(answer.isError, `${name}: ${answer.content[0]?.text ?? ''}`).toBeFalsy()
            return answer
          }
          await call('tapir_snap')
          expect(JSON.parse((await call('tapir_find', {text: 'Email'})).content[0]!.text!)).toMatchObject({ref: 'q1'})
          await call('tapir_fill', {ref: 'q1', text: 'ada@example.com'})
          await call('tapir_fill', {ref: 'e4', text: 'hunter22'})
          await call('tapir_tap', {ref: 'e6'})
          await call('tapir_wait_for', {text: 'Monitors', timeoutMs: 3000})
        } finally {
          await client.close()
        }
        const text = readFileSync(file, 'utf8')
        expect(text).toContain('\n# app package: none (driven zero-install)\n')
        expect(text).not.toContain('hunter22')
        expect(text.split('\n').filter((line) => line !== '' && !line.startsWith('#'))).toEqual([
          'find --text=Email --as=email',
          'fill --ref=@email --text=ada@example.com',
          'find --semanticsLabel=Password --as=password',
          'fill --ref=@password --text=${env.TAPIR_SECRET_PASSWORD}',
          "find --semanticsLabel='Sign in' --as=sign_in --matches=2",
          'tap --ref=@sign_in',
          'wait --text=Monitors --timeoutMs=3000',
        ])
      } finally {
        await s.close()
      }
      const fresh = await simSession({package: 'none'})
      try {
        const run = await fresh.spawn(['tapir:run', '--file', file], {env: {TAPIR_SECRET_PASSWORD: 'hunter22'}})
        expect(run.exitCode, run.stdout + run.stderr).toBe(0)
        expect((await fresh.spawn(['tapir:snap', '--interactiveOnly'])).stdout).toContain('- heading "Monitors"')
      } finally {
        await fresh.close()
        project.remove()
      }
    },
    SLOW,
  )
})

describe('the find a recording writes picks the control, as the package does', () => {
  it('find --semanticsLabel of a heading and a button with one label names the button, on an app with no package', async () => {
    const s = await simSession({package: 'none'})
    try {
      const found = await s.spawn(['tapir:find', '--semanticsLabel=Sign in'])
      expect(found).toMatchObject({exitCode: 0, stderr: ''})
      expect(JSON.parse(found.stdout)).toEqual({matched: true, ref: 'q1', matchCount: 2})
      const named = await s.spawn(['tapir:snap', '--within=q1'])
      expect(named).toMatchObject({exitCode: 0, stdout: '- button "Sign in" [ref=e6]', stderr: ''})
    } finally {
      await s.close()
    }
  })
})
