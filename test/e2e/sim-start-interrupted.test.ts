import {existsSync, readFileSync} from 'node:fs'
import {join} from 'node:path'
import {StdioClientTransport} from '@modelcontextprotocol/sdk/client/stdio.js'
import {execa} from 'execa'
import {afterAll, describe, expect, it} from 'vitest'
import {BIN, cliEnv, tapir, tempDir} from '../helpers/cli.js'
import {expectNoProcessLeft} from '../helpers/leftovers.js'
import {McpTestClient} from '../helpers/mcp.js'

// Every process signalled here is one this file spawned (the CLI, mcp:serve); the sims they start
// carry this file's mark, so any left over is found and ended by pid.
expectNoProcessLeft()

const alive = (pid: number): boolean => {
  try {
    process.kill(pid, 0)
    return true
  } catch {
    return false
  }
}

type Booting = {booting?: boolean; processes?: {app?: {pid: number}}}

/** The session once it records a sim that is still booting: written the moment the sim runs. */
async function bootingSession(state: string): Promise<Booting & {processes: {app: {pid: number}}}> {
  const deadline = Date.now() + 30_000
  while (Date.now() < deadline) {
    try {
      const session = JSON.parse(readFileSync(state, 'utf8')) as Booting
      if (session.processes?.app) {
        expect(session.booting, 'the sim was already ready: the start was not caught while booting').toBe(true)
        return session as Booting & {processes: {app: {pid: number}}}
      }
    } catch {
      // not written yet, or written meanwhile
    }
    await new Promise((resolve) => setTimeout(resolve, 2))
  }
  throw new Error(`no session recorded a booting sim at ${state}`)
}

async function gone(pid: number): Promise<boolean> {
  for (const deadline = Date.now() + 10_000; Date.now() < deadline;) {
    if (!alive(pid)) return true
    await new Promise((resolve) => setTimeout(resolve, 50))
  }
  return false
}

const dirs: Array<{remove(): void}> = []
afterAll(() => dirs.forEach((dir) => dir.remove()))
function scratch(): {dir: string; state: string} {
  const dir = tempDir('tapir-sim-int-')
  dirs.push(dir)
  return {dir: dir.path, state: join(dir.path, 'state.json')}
}

describe('an interrupted sim start leaves nothing running, or a session that stop ends', () => {
  it.each(['SIGINT', 'SIGTERM', 'SIGHUP'] as const)('%s to tapir start --device=sim while the sim boots ends the sim', async (signal) => {
    const {dir, state} = scratch()
    const start = execa(process.execPath, [BIN, 'start', '--device=sim', '--state', state], {
      cwd: dir,
      env: cliEnv(),
      extendEnv: false,
      reject: false,
    })
    const sim = (await bootingSession(state)).processes.app.pid
    start.kill(signal)
    const result = await start
    expect(result.exitCode).toBe(1)
    expect(result.stderr).toBe('✗ Interrupted before the app started. Nothing was left running.')
    expect(await gone(sim)).toBe(true)
    expect(existsSync(state)).toBe(false)
    expect((await tapir(['stop', '--state', state], {cwd: dir})).stdout).toBe(`✓ Nothing to stop (no session at ${state}).`)
  })

  it('SIGKILL to tapir start leaves the booting sim recorded: stop ends it', async () => {
    const {dir, state} = scratch()
    const start = execa(process.execPath, [BIN, 'start', '--device=sim', '--state', state], {
      cwd: dir,
      env: cliEnv(),
      extendEnv: false,
      reject: false,
    })
    const sim = (await bootingSession(state)).processes.app.pid
    start.kill('SIGKILL')
    await start
    const stop = await tapir(['stop', '--state', state], {cwd: dir})
    expect(stop.exitCode, stop.stderr).toBe(0)
    expect(stop.stdout).toContain(`✓ Stopped app pid=${sim}`)
    expect(await gone(sim)).toBe(true)
  })
})

describe('mcp:serve ends the sim a tapir_start was starting', () => {
  async function serving(state: string, dir: string) {
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [BIN, 'mcp:serve', '--state', state],
      cwd: dir,
      env: cliEnv(),
      stderr: 'pipe',
    })
    const client = new McpTestClient()
    await client.connect(transport)
    return {client, pid: transport.pid!}
  }

  it('SIGTERM to the server while tapir_start {device: "sim"} boots the sim: the sim ends, the session goes', async () => {
    const {dir, state} = scratch()
    const {client, pid} = await serving(state, dir)
    const call = client.callTool({name: 'tapir_start', arguments: {device: 'sim'}}).catch(() => undefined)
    const sim = (await bootingSession(state)).processes.app.pid
    process.kill(pid, 'SIGTERM')
    await call
    expect(await gone(sim)).toBe(true)
    expect(await gone(pid)).toBe(true)
    expect(existsSync(state)).toBe(false)
    await client.close().catch(() => undefined)
  })

  it('SIGKILL to the server leaves the booting sim recorded: tapir stop ends it', async () => {
    const {dir, state} = scratch()
    const {client, pid} = await serving(state, dir)
    const call = client.callTool({name: 'tapir_start', arguments: {device: 'sim'}}).catch(() => undefined)
    const sim = (await bootingSession(state)).processes.app.pid
    process.kill(pid, 'SIGKILL')
    await call
    await client.close().catch(() => undefined)
    const stop = await tapir(['stop', '--state', state], {cwd: dir})
    expect(stop.stdout).toContain(`✓ Stopped app pid=${sim}`)
    expect(await gone(sim)).toBe(true)
  })

  it('a cancelled tapir_start does not start the sim', async () => {
    const {dir, state} = scratch()
    const {client} = await serving(state, dir)
    const cancel = new AbortController()
    const call = client
      .callTool({name: 'tapir_start', arguments: {device: 'sim'}}, undefined, {signal: cancel.signal})
      .catch((error: Error) => error)
    const sim = (await bootingSession(state)).processes.app.pid
    cancel.abort()
    await call
    expect(await gone(sim)).toBe(true)
    // the server has ended what it started before it takes the next call
    const status = await client.callTool({name: 'tapir_status', arguments: {}})
    expect(JSON.stringify(status.content)).not.toContain(String(sim))
    expect(existsSync(state)).toBe(false)
    await client.close()
  })
})
