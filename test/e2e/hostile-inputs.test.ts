import {execFileSync} from 'node:child_process'
import {mkdirSync, readFileSync, statSync, writeFileSync} from 'node:fs'
import {join} from 'node:path'
import type {Client} from '@modelcontextprotocol/sdk/client/index.js'
import {afterAll, beforeAll, describe, expect, it} from 'vitest'
import {sessionFile, tapir, tempDir} from '../helpers/cli.js'
import {hostileVm, type HostileVm} from '../helpers/hostile-vm.js'
import {mcpClient} from '../helpers/mcp.js'
import {withSimSession} from '../helpers/sim.js'

const URI = 'ws://127.0.0.1:9/AbCdEfGh12s=/ws'

describe('a session file with fields of the wrong type', () => {
  const dir = tempDir()
  afterAll(() => dir.remove())
  const write = (fields: Record<string, unknown>, name = 'state.json') => {
    const path = join(dir.path, name)
    writeFileSync(path, JSON.stringify({vmServiceUri: URI, ...fields}), {mode: 0o600})
    return path
  }

  it.each([
    ['projectRoot', 42, 'a number, not a string'],
    ['device', {name: 'linux'}, 'an object, not a string'],
    ['log', ['a.log'], 'a list, not a string'],
    ['startedAt', true, 'a boolean, not a string'],
    ['supervisorSocket', 7, 'a number, not a string or null'],
    ['tmpProfileDir', {}, 'an object, not a string or null'],
  ])(
    '%s = %j: every command says the file is not a session, exit 1, and it is kept',
    async (field, value, kind) => {
      const state = write({[field]: value})
      const refusal = `${state} is not a tapir session file (its ${field} is ${kind}). Check --state / TAPIR_STATE_FILE: it must name a session file tapir wrote.`
      for (const args of [['status'], ['tapir:snap'], ['logs'], ['stop'], ['restart']]) {
        expect(await tapir([...args, '--state', state]), args.join(' ')).toMatchObject({exitCode: 1, stdout: '', stderr: `✗ ${refusal}`})
      }
      const doctor = await tapir(['doctor', '--state', state])
      expect(doctor.exitCode).toBe(1)
      expect(doctor.stdout.split('\n')).toContain(`✗ session: ${refusal}`)
      expect(readFileSync(state, 'utf8')).toContain(String(field))
    },
    120_000,
  )

  it('a shared pointer whose projectRoot is a number is passed over, as any file that is not a session', async () => {
    const home = join(dir.path, 'home')
    mkdirSync(join(home, '.tapir'), {recursive: true, mode: 0o700})
    writeFileSync(join(home, '.tapir', 'state.json'), JSON.stringify({vmServiceUri: URI, projectRoot: 42}), {mode: 0o600})
    const project = join(dir.path, 'project')
    mkdirSync(project)
    for (const args of [['tapir:snap'], ['status']]) {
      const result = await tapir(args, {cwd: project, home})
      expect(result.exitCode, args.join(' ')).toBe(1)
      expect(result.stderr).toMatch(/^✗ No running Flutter app detected \(session file: .*\)\. Run `tapir start --device=sim`/)
    }
  })

  it('a session nested thousands of levels deep is refused, not walked', async () => {
    const state = join(dir.path, 'deep.json')
    writeFileSync(state, `{"vmServiceUri": null, "extra": ${'['.repeat(20_000)}${']'.repeat(20_000)}}`, {mode: 0o600})
    for (const args of [['status'], ['stop']]) {
      expect(await tapir([...args, '--state', state]), args.join(' ')).toMatchObject({
        exitCode: 1,
        stderr: `✗ ${state} is not a tapir session file (it nests deeper than 16 levels). Check --state / TAPIR_STATE_FILE: it must name a session file tapir wrote.`,
      })
    }
  })

  it('a FIFO or a 2 MB file where the session belongs is refused at once, not waited on or read', async () => {
    const fifo = join(dir.path, 'fifo.json')
    execFileSync('mkfifo', ['-m', '600', fifo])
    expect(await tapir(['status', '--state', fifo])).toMatchObject({
      exitCode: 1,
      stderr: `✗ Refusing the session file ${fifo}: it is not a regular file.`,
    })
    const huge = write({padding: 'x'.repeat(2 * 1024 * 1024)}, 'huge.json')
    expect(await tapir(['status', '--state', huge])).toMatchObject({
      exitCode: 1,
      stderr: `✗ Refusing the session file ${huge}: it is ${statSync(huge).size} bytes, more than any session holds. Remove it.`,
    })
  })

  it('restart replays only start options a session may record: anything else is refused before the app is stopped', async () => {
    const state = write({device: 'sim', startArgs: ['--device=sim', `--state=${join(dir.path, 'elsewhere.json')}`]}, 'replay.json')
    expect(await tapir(['restart', '--state', state])).toMatchObject({
      exitCode: 1,
      stderr:
        '✗ The session records start options tapir does not write (startArgs), so restart will not replay them. Run `tapir stop`, then `tapir start` with the options you want.',
    })
    expect(readFileSync(state, 'utf8')).toContain('startArgs')
  })
})

describe('an answer nested deeper than any app nests one', () => {
  let vm: HostileVm
  const dir = tempDir()
  let state: string
  let client: Client
  beforeAll(async () => {
    const depth = 100_000
    vm = await hostileVm((method) =>
      method === 'ext.tapir.observe' ? {rawResult: `{"nodes":${'['.repeat(depth)}1${']'.repeat(depth)}}`} : undefined,
    )
    state = sessionFile(dir.path, vm.httpUri)
    client = await mcpClient(state)
  })
  afterAll(async () => {
    await client.close()
    await vm.close()
    dir.remove()
  })

  const message = 'The app sent a malformed answer to ext.tapir.observe: it nests arrays and objects deeper than 1000 levels.'

  it('the CLI: exit 3, one line saying so', async () => {
    expect(await tapir(['tapir:observe', '--state', state, '--timeout=5000'])).toMatchObject({
      exitCode: 3,
      stdout: '',
      stderr: `✗ ${message}`,
    })
    const json = await tapir(['tapir:observe', '--json', '--state', state, '--timeout=5000'])
    expect(json.exitCode).toBe(3)
    expect(JSON.parse(json.stdout)).toEqual({error: {message, exitCode: 3}})
  })

  it('MCP: an error result saying so, and the server serves on', async () => {
    const result = (await client.callTool({name: 'tapir_observe', arguments: {}})) as {isError?: boolean; content: Array<{text: string}>}
    expect(result.isError).toBe(true)
    expect(result.content[0]!.text.split('\n')[0]).toBe(message)
    expect((await client.listTools()).tools.length).toBeGreaterThan(10)
  })
})

describe('MCP arguments a tool does not take', () => {
  const s = withSimSession()
  let client: Client
  beforeAll(async () => {
    client = await mcpClient(s.state)
  })
  afterAll(() => client.close())

  it.each([
    ['__proto__', '{"__proto__": {"interactiveOnly": true}}'],
    ['constructor', '{"constructor": {"prototype": {"polluted": true}}}'],
    ['an unknown name', '{"geometry": "true"}'],
    ['a known one beside __proto__', '{"interactiveOnly": true, "__proto__": {"grep": "x"}}'],
  ])('%s: an isError result naming it (MCP 2025-11-25: bad arguments are a tool error), and the call never runs', async (_what, json) => {
    const answer = (await client.callTool({name: 'tapir_snap', arguments: JSON.parse(json) as Record<string, unknown>})) as {
      isError?: boolean
      content: Array<{text: string}>
    }
    expect(answer.isError).toBe(true)
    expect(answer.content[0]!.text).toMatch(/^tapir_snap takes no argument "/)
    expect(({} as Record<string, unknown>).polluted).toBeUndefined()
  })

  it('tapir_run as well, and the server serves on', async () => {
    const call = client.callTool({
      name: 'tapir_run',
      arguments: JSON.parse('{"steps": ["snap"], "__proto__": {"continue": true}}') as Record<string, unknown>,
    })
    expect(((await call) as {isError?: boolean}).isError).toBe(true)
    const snap = (await client.callTool({name: 'tapir_snap', arguments: {interactiveOnly: true}})) as {isError?: boolean}
    expect(snap.isError).toBeFalsy()
  })
})
