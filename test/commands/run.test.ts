import {writeFileSync} from 'node:fs'
import {join} from 'node:path'
import {afterAll, beforeAll, beforeEach, describe, expect, it} from 'vitest'
import {simSession, type SimSession} from '../helpers/sim.js'

const LOGIN = [
  'find --key=email',
  'fill --ref=q1 --text=ada@example.com',
  'find --key=password',
  "fill --ref=q2 --text='hunter 22'",
  'find --key=signIn',
  'tap --ref=q3',
  'wait --text=Monitors',
  'snap --interactiveOnly',
]

describe('tapir:run', () => {
  let s: SimSession
  beforeAll(async () => {
    s = await simSession({}, 'in-process')
  })
  beforeEach(() => {
    s.sim.app.restart()
  })
  afterAll(async () => {
    expect(s.sim.violations).toEqual([])
    await s.close()
  })

  const sent = () => s.sim.requests.filter((request) => request.method.startsWith('ext.tapir.')).length

  it('runs a login flow in one process over one connection', async () => {
    const vmCalls = s.sim.requests.filter((request) => request.method === 'getVM').length
    const result = await s.run(['tapir:run', ...LOGIN])
    expect(result.exitCode, result.stderr).toBe(0)
    const lines = result.stdout.split('\n')
    expect(lines.slice(0, 8)).toEqual([
      '[1/8] find --key=email ok: {"ref":"q1","matched":true,"matchCount":1}',
      '[2/8] fill --ref=q1 --text=ada@example.com ok: ✓ Filled q1',
      '[3/8] find --key=password ok: {"ref":"q2","matched":true,"matchCount":1}',
      "[4/8] fill --ref=q2 --text='hunter 22' ok: ✓ Filled q2",
      '[5/8] find --key=signIn ok: {"ref":"q3","matched":true,"matchCount":1}',
      '[6/8] tap --ref=q3 ok: ✓ Tapped q3',
      expect.stringMatching(/^\[7\/8\] wait --text=Monitors ok: ✓ Condition matched after \d+ ms$/),
      '[8/8] snap --interactiveOnly ok:',
    ])
    // The last step's output once, whole, after its line.
    expect(lines[8]).toBe('- heading "Monitors" [ref=e1]')
    expect(lines.filter((line) => line.includes('- heading "Monitors" [ref=e1]'))).toHaveLength(1)
    expect(result.stdout).toContain('- button "Export"')
    // one connection: the isolate was looked up once for all eight steps
    expect(s.sim.requests.filter((request) => request.method === 'getVM').length - vmCalls).toBe(1)
  })

  it('stops at a failing step with its exit code and runs nothing after it', async () => {
    const before = sent()
    const result = await s.run(['tapir:run', 'snap --interactiveOnly', 'tap --ref=e999', 'snap'])
    expect(result.exitCode).toBe(3)
    expect(result.stdout.split('\n')[1]).toMatch(/^\[2\/3\] tap --ref=e999 failed \(exit 3\): ✗ .*e999/)
    expect(result.stderr.split('\n')[0]).toBe('✗ step 2 failed (exit 3): tap --ref=e999')
    expect(sent() - before).toBe(2)
  })

  it('a usage error in a step fails the run with exit 1', async () => {
    const result = await s.run(['tapir:run', 'snap', 'find --within=e1'])
    expect(result.exitCode).toBe(1)
    expect(result.stderr).toBe(
      '✗ step 2 failed (exit 1): find --within=e1\n✗ Provide at least one of --text / --contains / --semanticsLabel / --key.',
    )
  })

  it('--continue runs every step and reports the first failure', async () => {
    const result = await s.run(['tapir:run', '--continue', 'tap --ref=e999', 'wait --text=Nowhere --timeoutMs=200', 'snap --grep Email'])
    expect(result.exitCode).toBe(3)
    const lines = result.stdout.split('\n')
    expect(lines[0]).toMatch(/^\[1\/3\] tap --ref=e999 failed \(exit 3\)/)
    expect(lines[1]).toMatch(/^\[2\/3\] wait --text=Nowhere --timeoutMs=200 failed \(exit 1\): ✗ Condition did not match/)
    expect(lines[2]).toBe('[3/3] snap --grep Email ok:')
    expect(result.stderr.split('\n')[0]).toBe('✗ step 1 failed (exit 3): tap --ref=e999')
    // then the last step's whole output
    expect(lines.slice(3)).toEqual([expect.stringMatching(/^- textbox "Email" \[ref=e\d+\]$/), '  typeable: true'])
  })

  it('--json reports every step and the first failure', async () => {
    const result = await s.run(['tapir:run', '--json', '--continue', 'snap --grep Email', 'wait --text=Nowhere --timeoutMs=100'])
    expect(result.exitCode).toBe(1)
    expect(JSON.parse(result.stdout)).toEqual({
      steps: [
        {
          step: 'snap --grep Email',
          ok: true,
          exitCode: 0,
          output: expect.stringMatching(/^- textbox "Email" \[ref=e\d+\]\n {2}typeable: true$/),
        },
        {step: 'wait --text=Nowhere --timeoutMs=100', ok: false, exitCode: 1, output: expect.stringContaining('Condition did not match')},
      ],
      failed: 2,
    })
  })

  it.each([
    [['snap', 'run "snap"'], 'step 2 (run "snap"): a run cannot contain another run.'],
    [
      ['resize --width=375 --height=812'],
      'step 1 (resize --width=375 --height=812): resize does not act on the connected app, so it cannot be a step; run it on its own.',
    ],
    [
      ['snap', 'frobnicate --now'],
      'step 2 (frobnicate --now): unknown verb "frobnicate". Steps are tapir verbs without the tapir: prefix (tap, fill, snap, ...).',
    ],
    [['close_app', 'snap'], 'step 1 (close_app): close_app ends the app, so it can only be the last step.'],
    [['snap; rm -rf /'], 'step 1 (snap; rm -rf /): shell operator ";" is not allowed; give each command as its own step.'],
    [['snap | tee x'], 'step 1 (snap | tee x): shell operator "|" is not allowed; give each command as its own step.'],
    [['snap > out.txt'], 'step 1 (snap > out.txt): shell operator ">" is not allowed; give each command as its own step.'],
    [
      ['fill --ref=q1 --text=$HOME'],
      'step 1 (fill --ref=q1 --text=$HOME): $HOME would be expanded by a shell; tapir does not expand variables. Put the value itself in the step, or single-quote it.',
    ],
    [
      ['fill --ref=q1 --text=$(id)'],
      'step 1 (fill --ref=q1 --text=$(id)): command substitution ($(…)) is not allowed; steps never reach a shell.',
    ],
    [['snap --grep *'], 'step 1 (snap --grep *): unquoted glob character "*": quote it; tapir never expands globs.'],
    [
      ['snap --timeout=100'],
      "step 1 (snap --timeout=100): --timeout belongs to tapir:run itself; every step uses the run's session and timeout.",
    ],
  ])('refuses %j before anything runs, exit 1', async (steps, message) => {
    const before = sent()
    const result = await s.run(['tapir:run', ...steps])
    expect(result).toMatchObject({exitCode: 1, stdout: '', stderr: `✗ ${message}`})
    expect(sent()).toBe(before)
  })

  it.each([
    ['nested quotes', `fill --ref=e2 --text="say 'hi' \\"there\\""`, `say 'hi' "there"`],
    ['a backslash escape', 'fill --ref=e2 --text=a\\ b', 'a b'],
    ['unicode', 'fill --ref=e2 --text="Grüße 😀 ☃"', 'Grüße 😀 ☃'],
    ['shell syntax inside quotes', `fill --ref=e2 --text='a;b && $c | *'`, 'a;b && $c | *'],
    ['a # inside a word', 'fill --ref=e2 --text=C#', 'C#'],
    ['a lone $', 'fill --ref=e2 --text="costs 5 $"', 'costs 5 $'],
  ])('passes %s through as the shell would', async (_name, step, text) => {
    const result = await s.run(['tapir:run', 'snap', step, 'snap --grep Email --json'])
    expect(result.exitCode, result.stderr).toBe(0)
    const last = JSON.parse(result.stdout.split('\n').at(-1)!)
    expect(last.snapshot).toContain(`- textbox "Email": ${JSON.stringify(text)} [ref=e2]`)
  })

  it('an empty quoted string clears the field', async () => {
    const result = await s.run(['tapir:run', 'snap', 'fill --ref=e2 --text=abc', 'fill --ref=e2 --text=""', 'snap --grep Email'])
    expect(result.exitCode).toBe(0)
    expect(result.stdout.split('\n').at(-2)).toBe('- textbox "Email" [ref=e2]')
  })

  it('reads steps from --file, skipping blank lines and comments', async () => {
    const file = join(s.dir, 'steps.txt')
    writeFileSync(file, `# sign in\n${LOGIN.join('\n\n')}\n`)
    const result = await s.run(['tapir:run', '--file', file])
    expect(result.exitCode, result.stderr).toBe(0)
    expect(result.stdout).toMatch(/^\[1\/8\] find --key=email ok/)
  })

  const REPEATED = ['get_routes', 'snap', 'get_routes', 'snap']
  const inOrder = (stdout: string) =>
    stdout
      .split('\n')
      .filter((line) => /^\[\d\/4\]/.test(line))
      .map((line) => line.split(' ok:')[0])
  const ORDER = ['[1/4] get_routes', '[2/4] snap', '[3/4] get_routes', '[4/4] snap']

  it('runs repeated identical steps in the order given, with run flags anywhere', async () => {
    const args = await s.run(['tapir:run', ...REPEATED])
    expect(args.exitCode, args.stderr).toBe(0)
    expect(inOrder(args.stdout)).toEqual(ORDER)
    for (const timeout of [['--timeout', '5000'], ['--timeout=5000']]) {
      const mixed = await s.run(['tapir:run', 'get_routes', ...timeout, 'snap', '--continue', 'get_routes', 'snap'])
      expect(inOrder(mixed.stdout), mixed.stderr).toEqual(ORDER)
    }
    const taps = await s.run(['tapir:run', 'snap --interactiveOnly', 'tap --ref=e999', 'snap --interactiveOnly'])
    expect(taps.stdout.split('\n')[1]).toMatch(/^\[2\/3\] tap --ref=e999 failed/)
  })

  it('-- ends the run flags: what follows is a step even if it looks like one of them', async () => {
    const result = await s.run(['tapir:run', '--continue', '--', 'get_routes', '--json'])
    expect(result.exitCode).toBe(1)
    expect(result.stderr).toContain('unknown verb "--json"')
  })
})
