import {writeFileSync} from 'node:fs'
import {join} from 'node:path'
import {afterAll, beforeAll, describe, expect, it} from 'vitest'
import {RELOAD_COMPILE_ERROR} from '../../src/sim/fault-knobs.js'
import {startSim, type SimHandle} from '../../src/sim/index.js'
import {sessionFile, tapir, tempDir} from '../helpers/cli.js'

describe('hot reload of an app tapir only attached to, through the reloadSources service flutter run registered', () => {
  const dir = tempDir()
  const source = join(dir.path, 'source.json')
  let sim: SimHandle
  let state: string
  const run = (args: string[]) => tapir(args, {env: {TAPIR_STATE_FILE: state}})
  beforeAll(async () => {
    sim = await startSim({flutterTool: true, sourceFile: source})
    state = sessionFile(dir.path, sim.wsUri, {device: 'attached'})
  })
  afterAll(async () => {
    expect(sim.violations).toEqual([])
    await sim.close()
    dir.remove()
  })

  it('reload rebuilds from the edited source, calling the service by the name the Service stream gave', async () => {
    writeFileSync(source, JSON.stringify({signInTitle: 'Attached and reloaded'}))
    const reload = await run(['reload'])
    expect(reload.stdout).toMatch(/^✓ Hot reloaded through vm service in \d+ ms \(Reloaded\)$/)
    expect(reload.exitCode).toBe(0)
    expect((await run(['tapir:snap'])).stdout).toMatch(/^- heading "Attached and reloaded"/)
    const called = sim.requests.filter((request) => request.method.endsWith('.reloadSources'))
    expect(called).toEqual([{method: 's0.reloadSources', params: {isolateId: expect.stringMatching(/^isolates\//)}}])
  })

  it('the reload-error knob: the next reload fails with a compile error (exit 1), the one after works', async () => {
    sim.setFaults({reloadCompileError: RELOAD_COMPILE_ERROR})
    const failed = await run(['reload'])
    expect(failed.stderr).toBe(`✗ Hot reload failed: Unable to reload sources: (-32603)\\n${RELOAD_COMPILE_ERROR.replaceAll('\n', '\\n')}`)
    expect(failed.exitCode).toBe(1)
    expect((await run(['reload'])).exitCode).toBe(0)
  })

  it('an app with no such service: says so, exit 1', async () => {
    const bare = await startSim()
    try {
      const result = await tapir(['reload'], {env: {TAPIR_STATE_FILE: sessionFile(dir.path, bare.wsUri, {device: 'attached'})}})
      expect(result.stderr).toMatch(/^✗ Cannot hot reload: tapir did not start this app and its VM Service offers no reloadSources service/)
      expect(result.exitCode).toBe(1)
    } finally {
      await bare.close()
    }
  })
})

describe('hot restart and reload of a web app run with --no-dds, through the bare names in DWDS’s registry', () => {
  const dir = tempDir()
  let web: SimHandle
  const run = (args: string[]) => tapir(args, {env: {TAPIR_STATE_FILE: sessionFile(dir.path, web.wsUri, {device: 'attached'})}})
  beforeAll(async () => {
    web = await startSim({mode: 'dwds-direct', flutterTool: true})
  })
  afterAll(async () => {
    expect(web.violations).toEqual([])
    await web.close()
    dir.remove()
  })

  it("hot-restart refuses DWDS's hotRestart, which would rerun old code; reload reaches DWDS's own reloadSources", async () => {
    const restart = await run(['hot-restart'])
    expect(restart.stderr).toBe(
      "✗ Cannot hot restart this web app with the code recompiled: tapir did not start it, and the only restart its VM Service offers is DWDS's, which reruns the code last compiled (flutter's reloadSources, which recompiles, is out of reach without DDS). Restart it in the terminal that runs flutter (R), or start it with `tapir start --device=chrome`.",
    )
    expect(restart.exitCode).toBe(1)
    expect(web.requests.filter((request) => request.method === 'hotRestart')).toEqual([])
    const reload = await run(['reload'])
    expect(reload).toMatchObject({exitCode: 0, stderr: ''})
    expect(reload.stdout).toMatch(/^✓ Hot reloaded through vm service in \d+ ms \(Reloaded\)$/)
    expect(web.requests.filter((request) => request.method === 'reloadSources')).toEqual([
      {method: 'reloadSources', params: {isolateId: '1'}},
    ])
  })
})

// On the web flutter_tools registers only reloadSources (resident_web_runner.dart attach(),
// setUpVmService); hotRestart there is DWDS's own (dwds_vm_client.dart), which does not recompile.
describe('hot restart of a web app behind DDS that tapir only attached to: recompiled through flutter, then restarted', () => {
  const dir = tempDir()
  const source = join(dir.path, 'source.json')
  let web: SimHandle
  const run = (args: string[]) => tapir(args, {env: {TAPIR_STATE_FILE: sessionFile(dir.path, web.wsUri, {device: 'attached'})}})
  beforeAll(async () => {
    web = await startSim({mode: 'dwds', flutterTool: true, sourceFile: source})
  })
  afterAll(async () => {
    expect(web.violations).toEqual([])
    await web.close()
    dir.remove()
  })

  it("calls flutter's reloadSources for the compile, then DWDS's hotRestart: new code, fresh state", async () => {
    expect((await run(['tapir:snap'])).exitCode).toBe(0)
    const fill = await run(['tapir:fill', '--ref=e2', '--text=ada@example.com'])
    expect(fill.exitCode, fill.stderr).toBe(0)
    writeFileSync(source, JSON.stringify({signInTitle: 'Recompiled'}))
    const restart = await run(['hot-restart'])
    expect(restart).toMatchObject({exitCode: 0, stderr: ''})
    expect(restart.stdout).toMatch(
      /^✓ Hot restarted through vm service in \d+ ms \(Recompiled through flutter's reloadSources, then restarted\)$/,
    )
    const called = web.requests
      .filter((request) => /(^|\.)(reloadSources|hotRestart)$/.test(request.method))
      .map((request) => request.method)
    expect(called).toEqual([expect.stringMatching(/^s\d+\.reloadSources$/), expect.stringMatching(/^s\d+\.hotRestart$/)])
    const snap = await run(['tapir:snap'])
    expect(snap.stdout).toMatch(/^- heading "Recompiled"/)
    expect(snap.stdout).not.toContain('ada@example.com')
  })
})
