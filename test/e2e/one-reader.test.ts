import {readdirSync} from 'node:fs'
import {join} from 'node:path'
import {StdioClientTransport} from '@modelcontextprotocol/sdk/client/stdio.js'
import {execa} from 'execa'
import {afterAll, describe, expect, it} from 'vitest'
import {BIN, scratchHome, tapir, tempDir} from '../helpers/cli.js'
import {McpTestClient} from '../helpers/mcp.js'
import {withSimSession} from '../helpers/sim.js'

// Every command line, a verb's or a command's, is read by the one reader (src/cli/command-line.ts)
// with the same rules; commands call commands with typed input, and the MCP server loads no oclif.

/** Whether a module under node_modules/@oclif was loaded, from Node's module log on stderr. */
const loadedOclif = (stderr: string) => /load "[^"]*[\\/]node_modules[\\/]@oclif[\\/]/.test(stderr)

describe('one reader for every command line', () => {
  const s = withSimSession()

  it('refuses a value on a boolean flag of a command, naming --no-<flag>, and runs nothing', async () => {
    for (const [args, flag, help] of [
      [['tapir:run', '--continue=false', 'tap --ref=e999', 'snap'], 'continue', 'tapir:run'],
      [['tapir:run', '--strict=false', 'snap'], 'strict', 'tapir:run'],
      [['test', '--bail=false', 'flows'], 'bail', 'test'],
    ] as const) {
      const result = await s.spawn([...args])
      expect({args, ...result}).toEqual({
        args,
        exitCode: 1,
        stdout: '',
        stderr: `✗ Flag --${flag} takes no value; give --${flag} or --no-${flag}. See \`tapir ${help} --help\`.`,
      })
    }
    // The global --json has no negation, on a command as on a verb.
    expect(await s.spawn(['tapir:run', '--json=false', 'snap'])).toMatchObject({
      exitCode: 1,
      stdout: '',
      stderr: '✗ Flag --json takes no value; give --json. See `tapir tapir:run --help`.',
    })
    // --no-continue is the flag's own negation: the run stops at the failing step.
    const stopped = await s.spawn(['tapir:run', '--no-continue', 'tap --ref=e999', 'snap --interactiveOnly'])
    expect(stopped.exitCode).toBe(3)
    expect(stopped.stdout).not.toContain('[2/2]')
  }, 120_000)

  it('fills "-h" on the command line exactly as the same tapir:run step does', async () => {
    const valueOf = async () => {
      const snap = await s.spawn(['tapir:snap'])
      return /textbox "Email".*$/m.exec(snap.stdout)?.[0]
    }
    const step = await s.spawn(['tapir:run', 'find --key=email', 'fill --ref=q1 --text -h'])
    expect(step.exitCode, step.stderr).toBe(0)
    const afterStep = await valueOf()
    expect(afterStep).toContain('-h')
    await s.spawn(['tapir:run', 'find --key=email', 'fill --ref=q1 --text=x'])
    const found = await s.spawn(['tapir:find', '--key=email'])
    const ref = JSON.parse(found.stdout).ref as string
    const cli = await s.spawn(['tapir:fill', `--ref=${ref}`, '--text', '-h'])
    expect(cli).toMatchObject({exitCode: 0, stdout: `✓ Filled ${ref}`})
    expect(await valueOf()).toBe(afterStep)
  }, 120_000)

  it("takes a flag's value that looks like a run's own flag as the value, in a step as on the command line", async () => {
    const email = async () => /textbox "Email".*$/m.exec((await s.spawn(['tapir:snap'])).stdout)?.[0]
    for (const text of ['--as=x', '--holds=x', '--timeout=5', '--state=x']) {
      const step = await s.spawn(['tapir:run', 'find --key=email', `fill --ref=q1 --text ${text}`])
      expect({text, exitCode: step.exitCode, stderr: step.stderr}).toEqual({text, exitCode: 0, stderr: ''})
      expect(await email()).toContain(JSON.stringify(text))
      await s.spawn(['tapir:run', 'find --key=email', 'fill --ref=q1 --text=y'])
      const ref = JSON.parse((await s.spawn(['tapir:find', '--key=email'])).stdout).ref as string
      expect(await s.spawn(['tapir:fill', `--ref=${ref}`, '--text', text])).toMatchObject({exitCode: 0, stdout: `✓ Filled ${ref}`})
      expect(await email()).toContain(JSON.stringify(text))
    }
    // Where a flag goes, each is still the run's own.
    expect(await s.spawn(['tapir:run', 'find --key=email', 'fill --ref=q1 --text=a --as=x'])).toMatchObject({exitCode: 1})
  }, 120_000)

  it("names `--` when start is given flutter run's own arguments before it", async () => {
    for (const [args, refused] of [
      [['--flavor=dev'], 'Nonexistent flag: --flavor'],
      [['--release'], 'Nonexistent flag: --release'],
      [['lib/main_dev.dart'], 'Unexpected argument: lib/main_dev.dart'],
    ] as const) {
      expect(await tapir(['start', '--device=macos', ...args])).toEqual({
        exitCode: 1,
        stdout: '',
        stderr: `✗ ${refused}. Arguments for flutter run go after \`--\` (tapir start --device=<device> -- ${args.join(' ')}). See \`tapir start --help\`.`,
      })
    }
    // A near miss of start's own flag is named as that flag.
    expect((await tapir(['start', '--device=sim', '--faults=latency=1'])).stderr).toBe(
      '✗ Nonexistent flag: --faults (did you mean --fault?). See `tapir start --help`.',
    )
  }, 60_000)

  it('refuses an argument that is not one of its options, doing nothing', async () => {
    const dir = tempDir('tapir-one-reader-args-')
    try {
      const state = join(dir.path, 'state.json')
      for (const [command, word] of [
        ['record', 'begin'],
        ['trace', 'Start'],
      ] as const) {
        const result = await tapir([command, word, 'out.file', '--state', state], {cwd: dir.path})
        expect({command, ...result}).toEqual({
          command,
          exitCode: 1,
          stdout: '',
          stderr: `✗ Expected ${word} to be one of: start, stop. See \`tapir ${command} --help\`.`,
        })
      }
      expect(readdirSync(dir.path)).toEqual([])
    } finally {
      dir.remove()
    }
  }, 60_000)

  it('words a refused line as JSON only where the command took --json', async () => {
    for (const [args, stderr] of [
      // mcp:serve has no --json: its stdout is the protocol's.
      [['mcp:serve', '--json'], '✗ Nonexistent flag: --json. See `tapir mcp:serve --help`.'],
      // After `--`, --json is a step, not the flag.
      [['tapir:run', '--nope', '--', '--json'], '✗ Nonexistent flag: --nope. See `tapir tapir:run --help`.'],
      [
        ['start', '--device=x', '--nope', '--', '--json'],
        '✗ Nonexistent flag: --nope. Arguments for flutter run go after `--` (tapir start --device=<device> -- --nope). See `tapir start --help`.',
      ],
    ] as const) {
      expect({args, ...(await tapir([...args]))}).toEqual({args, exitCode: 1, stdout: '', stderr})
    }
    const asked = await tapir(['tapir:run', '--nope', '--json', 'snap'])
    expect(asked.exitCode).toBe(1)
    expect(JSON.parse(asked.stdout)).toEqual({error: {message: 'Nonexistent flag: --nope. See `tapir tapir:run --help`.', exitCode: 1}})
  }, 60_000)

  it('asks oclif for help only where a flag goes', async () => {
    const help = await tapir(['tapir:fill', '--ref=e2', '-h'])
    expect(help.exitCode).toBe(0)
    expect(help.stdout).toContain('USAGE')
    const status = await tapir(['status', '--help'])
    expect(status.stdout).toContain('$ tapir status')
    // A command's rest words are in its help, as the arguments they are.
    for (const [command, words, what] of [
      ['tapir:run', 'STEPS', 'Verb lines, run in order.'],
      ['test', 'PATHS', 'Test files and folders of them (this folder when none).'],
      ['merge-reports', 'FOLDERS', 'The report folders of the shards.'],
    ] as const) {
      const {stdout} = await tapir([command, '--help'])
      expect(stdout, command).toContain(`$ tapir ${command} [${words}...]`)
      expect(stdout, command).toMatch(new RegExp(`ARGUMENTS\\n\\s+\\[${words}\\.\\.\\.\\]\\s+${what.replace(/[.()]/g, '\\$&')}`))
    }
  }, 60_000)
})

describe('commands call commands with typed input, and the MCP server loads no oclif', () => {
  const dir = tempDir('tapir-one-reader-')
  afterAll(() => dir.remove())
  const state = join(dir.path, 'state.json')
  const env = {HOME: scratchHome(), NO_COLOR: '1', NODE_DEBUG: 'module'}

  it('runs start, restart and stop with no oclif loaded', async () => {
    for (const args of [['start', '--device=sim'], ['restart'], ['status'], ['stop']]) {
      const result = await execa(process.execPath, [BIN, ...args, '--state', state], {env, reject: false, timeout: 60_000})
      expect({args, exitCode: result.exitCode, oclif: loadedOclif(result.stderr)}).toEqual({args, exitCode: 0, oclif: false})
    }
  }, 180_000)

  it('serves the session tools over MCP, each running its command, with no oclif loaded', async () => {
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [BIN, 'mcp:serve', '--state', state],
      env: {...process.env, ...env, NODE_ENV: 'production'} as Record<string, string>,
      stderr: 'pipe',
    })
    let stderr = ''
    transport.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')))
    const client = new McpTestClient()
    await client.connect(transport)
    try {
      const started = await client.callTool({name: 'tapir_start', arguments: {device: 'sim'}})
      expect(started.isError, JSON.stringify(started.content)).toBeFalsy()
      const status = await client.callTool({name: 'tapir_status', arguments: {}})
      expect(JSON.parse((status.content as Array<{text: string}>)[0]!.text)).toMatchObject({device: 'sim', answering: true})
      const stopped = await client.callTool({name: 'tapir_stop', arguments: {}})
      expect(stopped.isError).toBeFalsy()
    } finally {
      await client.close()
    }
    expect(stderr).toContain('load "')
    expect(loadedOclif(stderr)).toBe(false)
  }, 180_000)
})
