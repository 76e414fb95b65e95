import {cpSync, rmSync, symlinkSync, writeFileSync} from 'node:fs'
import {join} from 'node:path'
import {execa} from 'execa'
import {describe, expect, it} from 'vitest'
import {BIN, ROOT, scratchHome, sessionFile, tempDir} from '../helpers/cli.js'
import {withSimSession} from '../helpers/sim.js'

// bin/run.cjs runs every command line, a verb's or a command's, from dist/tapir.cjs, which holds
// no oclif, and help, the command list and an unknown command's nearest name through oclif from
// dist/. Node's module log says which ran.

interface Run {
  stdout: string
  stderr: string
  exitCode: number
  bundle: boolean
  oclif: boolean
}

async function run(args: string[], env: Record<string, string> = {}, root = ROOT): Promise<Run> {
  const result = await execa(process.execPath, [join(root, 'bin', 'run.cjs'), ...args], {
    env: {HOME: scratchHome(), NO_COLOR: '1', NODE_DEBUG: 'module', ...env},
    reject: false,
    timeout: 60_000,
  })
  const lines = result.stderr.split('\n')
  return {
    stdout: result.stdout,
    stderr: lines.filter((line) => !line.startsWith('MODULE ')).join('\n'),
    exitCode: result.exitCode ?? -1,
    bundle: lines.some((line) => line.includes(`load "${join(root, 'dist', 'tapir.cjs')}"`)),
    oclif: lines.some((line) => /load "[^"]*[\\/]node_modules[\\/]@oclif[\\/]core[\\/]/.test(line)),
  }
}

describe('start-up', () => {
  const s = withSimSession()
  const dir = tempDir('tapir-start-up-')
  const state = () => sessionFile(dir.path, s.sim.wsUri)

  it('runs a verb and a command from the bundle with no oclif loaded, and help through oclif', async () => {
    const snap = await run(['tapir:snap', '--interactiveOnly', '--state', state()])
    expect(snap).toMatchObject({exitCode: 0, bundle: true, oclif: false, stderr: ''})
    expect(snap.stdout).toContain('- button "Sign in" [ref=e4]')
    // A usage error is the reader's, in the bundle too.
    expect(await run(['tapir:snap', '--bogus', '--state', state()])).toMatchObject({
      exitCode: 1,
      bundle: true,
      oclif: false,
      stderr: '✗ Nonexistent flag: --bogus. See `tapir tapir:snap --help`.',
    })
    for (const command of [['status'], ['tapir:run', 'snap --interactiveOnly'], ['stop', '--state', join(dir.path, 'none.json')]]) {
      const result = await run([...command, ...(command[0] === 'stop' ? [] : ['--state', state()])])
      expect({command, exitCode: result.exitCode, bundle: result.bundle, oclif: result.oclif}).toEqual({
        command,
        exitCode: 0,
        bundle: true,
        oclif: false,
      })
    }
    // Help is oclif's, asked for where a flag goes; the reader tells (below, -h as a value is not).
    expect(await run(['tapir:snap', '--help'])).toMatchObject({exitCode: 0, bundle: true, oclif: true})
    expect(await run(['status', '-h'])).toMatchObject({exitCode: 0, bundle: true, oclif: true})
    expect(await run(['tapir:run', 'snap', '--json', '--help'])).toMatchObject({exitCode: 0, bundle: true, oclif: true})
    // tapir:run's own flags and its steps are read by the same reader.
    expect(await run(['tapir:run', 'snap --bogus', '--state', state()])).toMatchObject({
      exitCode: 1,
      bundle: true,
      oclif: false,
      stdout: '[1/1] snap --bogus failed (exit 1): ✗ Nonexistent flag: --bogus. See `tapir tapir:snap --help`.',
    })
    // Not a verb: the bundle leaves it to oclif, whose hook suggests the name.
    expect(await run(['tapir:snapp'])).toMatchObject({
      exitCode: 1,
      bundle: true,
      oclif: true,
      stderr: '✗ Unknown command tapir:snapp. Did you mean `tapir tapir:snap`? See `tapir --help` for the commands.',
    })
  }, 60_000)

  it('runs a verb through oclif, with the same reader, when there is no bundle (a dist/ tsc alone built)', async () => {
    const root = join(dir.path, 'package')
    for (const part of ['bin', 'dist', 'package.json']) cpSync(join(ROOT, part), join(root, part), {recursive: true})
    symlinkSync(join(ROOT, 'node_modules'), join(root, 'node_modules'))
    rmSync(join(root, 'dist', 'tapir.cjs'))
    const snap = await run(['tapir:snap', '--interactiveOnly', '--state', state()], {}, root)
    expect(snap).toMatchObject({exitCode: 0, bundle: false, oclif: true, stderr: ''})
    expect(snap.stdout).toContain('- button "Sign in" [ref=e4]')
    expect(await run(['tapir:snap', '--bogus', '--state', state()], {}, root)).toMatchObject({
      exitCode: 1,
      stderr: '✗ Nonexistent flag: --bogus. See `tapir tapir:snap --help`.',
    })
  }, 60_000)

  it('falls back to oclif, with no stack trace and no wait, when dist/tapir.cjs is damaged', async () => {
    const root = join(dir.path, 'damaged')
    for (const part of ['bin', 'dist', 'package.json']) cpSync(join(ROOT, part), join(root, part), {recursive: true})
    symlinkSync(join(ROOT, 'node_modules'), join(root, 'node_modules'))
    const bundle = join(root, 'dist', 'tapir.cjs')
    const damages: Array<[string, () => Promise<unknown> | void]> = [
      ['empty', () => writeFileSync(bundle, '')],
      ['no runLine', () => writeFileSync(bundle, 'exports.somethingElse = 1\n')],
      // A FIFO nobody writes: reading it would wait for ever.
      ['a FIFO', async () => (rmSync(bundle), await execa('mkfifo', [bundle]))],
    ]
    for (const [name, damage] of damages) {
      await damage()
      const snap = await run(['tapir:snap', '--interactiveOnly', '--state', state()], {}, root)
      expect({name, exitCode: snap.exitCode, oclif: snap.oclif, stderr: snap.stderr}).toEqual({name, exitCode: 0, oclif: true, stderr: ''})
      expect(snap.stdout).toContain('- button "Sign in" [ref=e4]')
    }
  }, 120_000)

  it('says in one line, exit 1, that an install without its package.json is incomplete', async () => {
    const root = join(dir.path, 'no-manifest')
    for (const part of ['bin', 'dist']) cpSync(join(ROOT, part), join(root, part), {recursive: true})
    symlinkSync(join(ROOT, 'node_modules'), join(root, 'node_modules'))
    for (const args of [['status'], ['--version'], ['tapir:snap', '--help']]) {
      const result = await run([...args, '--state', state()], {}, root)
      expect({args, exitCode: result.exitCode, stdout: result.stdout, stderr: result.stderr}).toEqual({
        args,
        exitCode: 1,
        stdout: '',
        stderr: `✗ This tapir install is incomplete: ${join(root, 'package.json')} is missing. Install tapir again.`,
      })
    }
  }, 60_000)

  it('names the Node it needs, with no stack trace, on a Node outside package.json engines', async () => {
    // Node 18 lacks process.getBuiltinModule, which bin/run.cjs calls first: the preload makes
    // this Node look like it, version and all.
    const preload = join(dir.path, 'old-node.cjs')
    const as = (version: string) =>
      writeFileSync(
        preload,
        `Object.defineProperty(process.versions, 'node', {value: '${version}'})\n` +
          (version.startsWith('18.') ? 'delete process.getBuiltinModule\n' : ''),
      )
    for (const version of ['18.20.4', '20.18.3', '22.12.0', '23.11.0']) {
      as(version)
      for (const args of [['tapir:snap'], ['status'], ['--version']]) {
        const result = await run([...args, '--state', state()], {NODE_OPTIONS: `--require=${preload}`})
        expect({version, args, exitCode: result.exitCode, stdout: result.stdout, stderr: result.stderr}).toEqual({
          version,
          args,
          exitCode: 1,
          stdout: '',
          stderr: `✗ tapir needs Node 20.19+, 22.13+ or 24+; this is Node ${version}. Install one from https://nodejs.org.`,
        })
      }
    }
    as('20.19.0')
    expect(await run(['tapir:snap', '--interactiveOnly', '--state', state()], {NODE_OPTIONS: `--require=${preload}`})).toMatchObject({
      exitCode: 0,
      stderr: '',
    })
  }, 120_000)

  it('takes --help after -- as a value, not as a request for help', async () => {
    const result = await run(['tapir:find', '--state', state(), '--', '--help'])
    expect(result).toMatchObject({
      exitCode: 1,
      bundle: true,
      oclif: false,
      stderr: '✗ Unexpected argument: --help. See `tapir tapir:find --help`.',
    })
  }, 60_000)

  it('loads a package the bundle leaves in node_modules when a verb needs it (perf_run reads YAML)', async () => {
    const scenario = join(dir.path, 'broken.yaml')
    await execa('sh', ['-c', `printf 'name: broken\\nsteps: [\\n' > "${scenario}"`])
    const result = await run(['tapir:perf_run', scenario, '--state', state()])
    expect(result).toMatchObject({exitCode: 1, bundle: true, oclif: false})
    expect(result.stderr).toMatch(/^✗ Invalid perf scenario:\n- .*broken\.yaml: YAML: line 3/)
  }, 60_000)

  for (const [name, args] of [
    ['a verb', ['tapir:snap', '--json']],
    ['a command', ['status']],
  ] as const) {
    it(`takes a reader that closes the pipe early as no error, and a full disk as one line (${name})`, async () => {
      const child = execa(process.execPath, [BIN, ...args, '--state', state()], {env: {HOME: scratchHome(), NO_COLOR: '1'}, reject: false})
      // Closed before tapir writes a byte: every write meets EPIPE.
      child.stdout?.destroy()
      const closed = await child
      expect({exitCode: closed.exitCode, stderr: closed.stderr}).toEqual({exitCode: 0, stderr: ''})
      const full = await execa(`"${process.execPath}" "${BIN}" ${args.join(' ')} --state "${state()}" > /dev/full`, {
        shell: true,
        env: {HOME: scratchHome(), NO_COLOR: '1'},
        reject: false,
      })
      expect({exitCode: full.exitCode, stderr: full.stderr}).toEqual({
        exitCode: 1,
        stderr: '✗ Cannot write the output: ENOSPC: no space left on device, write',
      })
    }, 60_000)
  }
})
