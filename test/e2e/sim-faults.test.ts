import {existsSync} from 'node:fs'
import {join} from 'node:path'
import {afterEach, describe, expect, it} from 'vitest'
import {isAlive} from '../../src/lib/session/process.js'
import {FAULT_KNOBS, faultKnobUsage} from '../../src/sim/fault-knobs.js'
import {tapir, tempDir, type CliResult} from '../helpers/cli.js'
import {expectNoProcessLeft} from '../helpers/leftovers.js'

expectNoProcessLeft()

/** One project with its own session file; `stop` runs after each test, whatever it asserted. */
function project() {
  const scratch = tempDir()
  const env = {TAPIR_STATE_FILE: join(scratch.path, 'state.json')}
  const run = (args: string[], extraEnv: Record<string, string> = {}): Promise<CliResult> =>
    tapir(args, {cwd: scratch.path, home: scratch.path, env: {...env, ...extraEnv}})
  return {scratch, env, run}
}

let current: ReturnType<typeof project> | undefined
afterEach(async () => {
  if (current === undefined) return
  await current.run(['stop'])
  current.scratch.remove()
  current = undefined
})

async function startSimWith(args: string[], env: Record<string, string> = {}): Promise<{pid: number; start: CliResult}> {
  current = project()
  const start = await current.run(['start', '--device=sim', ...args], env)
  expect(start.exitCode, start.stderr).toBe(0)
  return {pid: Number(/sim pid=(\d+)/.exec(start.stdout)?.[1]), start}
}

async function stopLeavesNoProcess(pid: number): Promise<void> {
  const stop = await current!.run(['stop'])
  expect(stop).toMatchObject({exitCode: 0, stdout: expect.stringContaining(`✓ Stopped app pid=${pid}`)})
  expect(isAlive(pid)).toBe(false)
}

describe('tapir start --device=sim with fault knobs', () => {
  it('lifecycle=hidden: tapir wakes the hidden window at each verb, so a tap lands and reads as landed (framesForced)', async () => {
    const {pid, start} = await startSimWith(['--fault=lifecycle=hidden'])
    expect(start.stdout).toContain('✓ faults=lifecycle=hidden')
    const snap = await current!.run(['tapir:snap', '--interactiveOnly'])
    expect(snap).toMatchObject({exitCode: 0, stderr: ''})
    expect(snap.stdout).toContain('- button "Sign in" [ref=e4]')
    expect(await current!.run(['tapir:tap', '--ref=e4'])).toMatchObject({exitCode: 0, stdout: '✓ Tapped e4', stderr: ''})
    const json = await current!.run(['tapir:snap', '--json'])
    expect(JSON.parse(json.stdout)).toMatchObject({framesForced: true, snapshot: expect.stringContaining('Enter your email and password')})
    expect(JSON.parse(json.stdout)).not.toHaveProperty('warnings')
    await stopLeavesNoProcess(pid)
  })

  it('lifecycle=hidden with no-force-frames (TAPIR_FORCE_FRAMES=false): no wake, so the frames banner, and the tap shows nothing', async () => {
    const {pid} = await startSimWith(['--fault=lifecycle=hidden', '--fault=no-force-frames'])
    expect((await current!.run(['tapir:snap', '--interactiveOnly'])).stdout).toContain('- button "Sign in" [ref=e4]')
    const tap = await current!.run(['tapir:tap', '--ref=e4'])
    expect(tap).toMatchObject({exitCode: 0, stdout: '✓ Tapped e4 (no observable change)'})
    expect(tap.stderr).toMatch(/^⚠ The app is not producing frames \(lifecycle: hidden\)/)
    const json = JSON.parse((await current!.run(['tapir:snap', '--json'])).stdout)
    expect(json.warnings).toMatchObject({framesEnabled: false, lifecycleState: 'hidden', platform: 'linux'})
    expect(json).not.toHaveProperty('framesForced')
    await stopLeavesNoProcess(pid)
  })

  it('missing-extensions from TAPIR_SIM_FAULTS: the app is driven zero-install; what needs the package names tapir install', async () => {
    const {pid} = await startSimWith([], {TAPIR_SIM_FAULTS: 'missing-extensions'})
    const snap = await current!.run(['tapir:snap', '--grep=^Email$'])
    expect(snap).toMatchObject({exitCode: 0, stdout: '- textbox "Email" [ref=e2]\n  typeable: true', stderr: ''})
    const routes = await current!.run(['tapir:get_routes'])
    expect(routes).toMatchObject({exitCode: 1, stdout: ''})
    expect(routes.stderr).toMatch(/^✗ tapir:get_routes has no zero-install form: .*; run tapir install to add the package\.$/)
    await stopLeavesNoProcess(pid)
  })

  it('latency=700 delays every reply: a snap (at least two round trips) takes 1.4 s or more', async () => {
    const {pid} = await startSimWith(['--fault=latency=700'])
    const began = Date.now()
    const snap = await current!.run(['tapir:snap', '--interactiveOnly'])
    expect(snap.exitCode).toBe(0)
    expect(Date.now() - began).toBeGreaterThanOrEqual(1400)
    await stopLeavesNoProcess(pid)
  })

  it('paused-isolate holds the call: the verb times out with exit 3', async () => {
    const {pid} = await startSimWith(['--fault=paused-isolate'])
    const snap = await current!.run(['tapir:snap', '--timeout=800'])
    expect(snap.exitCode).toBe(3)
    expect(snap.stderr).toBe(
      '✗ ext.tapir.snap got no answer within 800 ms. The app may be paused at a breakpoint or busy; resume it, or raise --timeout.',
    )
    await stopLeavesNoProcess(pid)
  })
})

describe('bad fault knobs', () => {
  it('an unknown --fault knob is one line naming the knobs, exit 1, and starts nothing', async () => {
    current = project()
    const result = await current.run(['start', '--device=sim', '--fault=latency=5', '--fault=slow'])
    expect(result.exitCode).toBe(1)
    expect(result.stdout).toBe('')
    expect(result.stderr).toBe(`✗ --fault: Unknown fault knob "slow"; use one of ${FAULT_KNOBS.map(faultKnobUsage).join(', ')}.`)
    expect(result.stderr).toContain('latency=<ms>, drop-socket=<method>, hang=<method>')
    expect(existsSync(current.env.TAPIR_STATE_FILE)).toBe(false)
  })

  it('a bad value in TAPIR_SIM_FAULTS names the variable and the fix, exit 1', async () => {
    current = project()
    const result = await current.run(['start', '--device=sim'], {TAPIR_SIM_FAULTS: 'lifecycle=hidden,latency=soon'})
    expect(result.exitCode).toBe(1)
    expect(result.stderr).toBe('✗ TAPIR_SIM_FAULTS: Fault knob latency=soon: give whole milliseconds from 0 to 600000, as in latency=200.')
    expect(existsSync(current.env.TAPIR_STATE_FILE)).toBe(false)
  })

  it('--json prints the error as JSON on stdout', async () => {
    current = project()
    const result = await current.run(['start', '--device=sim', '--fault=paused-isolate=yes', '--json'])
    expect(result.exitCode).toBe(1)
    expect(JSON.parse(result.stdout)).toEqual({
      error: {message: '--fault: Fault knob "paused-isolate" takes no value; write it as paused-isolate.', exitCode: 1},
    })
  })
})
