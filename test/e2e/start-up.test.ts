import {
  chmodSync,
  cpSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  symlinkSync,
  utimesSync,
  writeFileSync,
} from 'node:fs'
import {tmpdir} from 'node:os'
import {join} from 'node:path'
import {execa} from 'execa'
import {afterAll, describe, expect, it} from 'vitest'
import {BIN, ROOT, scratchHome, sessionFile, tempDir} from '../helpers/cli.js'
import {withSimSession} from '../helpers/sim.js'

// bin/run.cjs runs a verb's line, and a quick command's, from dist/quick.cjs, any other command's
// from dist/tapir.cjs, neither of which holds oclif, and help, the command list and an unknown
// command's nearest name through oclif from dist/. Node's module log says which loaded, and a
// preload lists the builtins a line loaded.

interface Run {
  stdout: string
  stderr: string
  exitCode: number
  quick: boolean
  whole: boolean
  oclif: boolean
  builtins: string[]
}

// Writes the builtin modules the process loaded to stderr as it exits, as one line.
const BUILTINS_PRELOAD = `process.on('exit', () => require('node:fs').writeSync(2, 'BUILTINS ' + process.moduleLoadList.filter((m) => m.startsWith('NativeModule ')).map((m) => m.slice(13)).join(' ') + '\\n'))`

const preloadDir = mkdtempSync(join(tmpdir(), 'tapir-start-up-preload-'))
const preload = join(preloadDir, 'builtins.cjs')
writeFileSync(preload, BUILTINS_PRELOAD)
afterAll(() => rmSync(preloadDir, {recursive: true, force: true}))

async function run(args: string[], env: Record<string, string> = {}, root = ROOT): Promise<Run> {
  const result = await execa(process.execPath, [join(root, 'bin', 'run.cjs'), ...args], {
    env: {HOME: scratchHome(), NO_COLOR: '1', NODE_DEBUG: 'module', NODE_OPTIONS: `--require=${preload}`, ...env},
    reject: false,
    timeout: 60_000,
  })
  const lines = result.stderr.split('\n')
  const loaded = (bundle: string) => lines.some((line) => line.includes(`load "${join(root, 'dist', bundle)}"`))
  return {
    stdout: result.stdout,
    stderr: lines.filter((line) => !line.startsWith('MODULE ') && !line.startsWith('BUILTINS ')).join('\n'),
    exitCode: result.exitCode ?? -1,
    quick: loaded('quick.cjs'),
    whole: loaded('tapir.cjs'),
    oclif: lines.some((line) => /load "[^"]*[\\/]node_modules[\\/]@oclif[\\/]core[\\/]/.test(line)),
    builtins:
      lines
        .find((line) => line.startsWith('BUILTINS '))
        ?.split(' ')
        .slice(1) ?? [],
  }
}

describe('start-up', () => {
  const s = withSimSession()
  const dir = tempDir('tapir-start-up-')
  const state = () => sessionFile(dir.path, s.sim.wsUri)

  it('runs a verb and a quick command from the quick bundle alone, any other from the whole one, help through oclif', async () => {
    const snap = await run(['tapir:snap', '--interactiveOnly', '--state', state()])
    expect(snap).toMatchObject({exitCode: 0, quick: true, whole: false, oclif: false, stderr: ''})
    expect(snap.stdout).toContain('- button "Sign in" [ref=e4]')
    // Builtins few lines need load where they are used, not with the bundle.
    for (const builtin of ['child_process', 'dgram', 'fs/promises', 'readline']) expect(snap.builtins).not.toContain(builtin)
    expect(snap.builtins).toContain('net')
    // A usage error is the reader's, in the bundle too.
    expect(await run(['tapir:snap', '--bogus', '--state', state()])).toMatchObject({
      exitCode: 1,
      quick: true,
      whole: false,
      oclif: false,
      stderr: '✗ Nonexistent flag: --bogus. See `tapir tapir:snap --help`.',
    })
    for (const command of [['status'], ['tapir:run', 'snap --interactiveOnly'], ['stop', '--state', join(dir.path, 'none.json')]]) {
      const result = await run([...command, ...(command[0] === 'stop' ? [] : ['--state', state()])])
      expect({command, exitCode: result.exitCode, quick: result.quick, whole: result.whole, oclif: result.oclif}).toEqual({
        command,
        exitCode: 0,
        quick: true,
        whole: false,
        oclif: false,
      })
    }
    // A suite against the running app is as quick to start as a verb.
    const flows = join(dir.path, 'flows')
    mkdirSync(flows, {recursive: true})
    writeFileSync(join(flows, 'snap.tapir'), 'snap\n')
    const suite = await run(['test', '--fresh=none', `--output-dir=${join(dir.path, 'reports')}`, flows, '--state', state()])
    expect(suite, suite.stderr).toMatchObject({exitCode: 0, quick: true, whole: false, oclif: false})
    // A command not in the quick bundle: that bundle leaves it untouched, the whole one runs it.
    expect(await run(['merge-reports'])).toMatchObject({
      exitCode: 1,
      quick: true,
      whole: true,
      oclif: false,
      stderr: '✗ Name the report folders to merge: tapir merge-reports shard-1 shard-2 …',
    })
    // Help is oclif's, asked for where a flag goes; the reader tells (below, -h as a value is not).
    expect(await run(['tapir:snap', '--help'])).toMatchObject({exitCode: 0, quick: true, oclif: true})
    expect(await run(['status', '-h'])).toMatchObject({exitCode: 0, quick: true, oclif: true})
    expect(await run(['tapir:run', 'snap', '--json', '--help'])).toMatchObject({exitCode: 0, quick: true, oclif: true})
    // tapir:run's own flags and its steps are read by the same reader.
    expect(await run(['tapir:run', 'snap --bogus', '--state', state()])).toMatchObject({
      exitCode: 1,
      quick: true,
      whole: false,
      oclif: false,
      stdout: '[1/1] snap --bogus failed (exit 1): ✗ Nonexistent flag: --bogus. See `tapir tapir:snap --help`.',
    })
    // Not a verb: both bundles leave it to oclif, whose hook suggests the name.
    expect(await run(['tapir:snapp'])).toMatchObject({
      exitCode: 1,
      quick: true,
      whole: true,
      oclif: true,
      stderr: '✗ Unknown command tapir:snapp. Did you mean `tapir tapir:snap`? See `tapir --help` for the commands.',
    })
  }, 60_000)

  it('runs a verb through oclif, with the same reader, when there is no bundle (a dist/ tsc alone built)', async () => {
    const root = join(dir.path, 'package')
    for (const part of ['bin', 'dist', 'package.json']) cpSync(join(ROOT, part), join(root, part), {recursive: true})
    symlinkSync(join(ROOT, 'node_modules'), join(root, 'node_modules'))
    for (const bundle of ['quick.cjs', 'tapir.cjs']) rmSync(join(root, 'dist', bundle))
    const snap = await run(['tapir:snap', '--interactiveOnly', '--state', state()], {}, root)
    expect(snap).toMatchObject({exitCode: 0, quick: false, whole: false, oclif: true, stderr: ''})
    expect(snap.stdout).toContain('- button "Sign in" [ref=e4]')
    expect(await run(['tapir:snap', '--bogus', '--state', state()], {}, root)).toMatchObject({
      exitCode: 1,
      stderr: '✗ Nonexistent flag: --bogus. See `tapir tapir:snap --help`.',
    })
  }, 60_000)

  it('falls back to the next bundle, then oclif, with no stack trace and no wait, when a bundle is damaged', async () => {
    const root = join(dir.path, 'damaged')
    for (const part of ['bin', 'dist', 'package.json']) cpSync(join(ROOT, part), join(root, part), {recursive: true})
    symlinkSync(join(ROOT, 'node_modules'), join(root, 'node_modules'))
    const damages: Array<[string, (bundle: string) => Promise<unknown> | void]> = [
      ['empty', (bundle) => writeFileSync(bundle, '')],
      ['no runLine', (bundle) => writeFileSync(bundle, 'exports.somethingElse = 1\n')],
      // A FIFO nobody writes: reading it would wait for ever.
      ['a FIFO', async (bundle) => (rmSync(bundle), await execa('mkfifo', [bundle]))],
    ]
    for (const [name, damage] of damages) {
      // The quick bundle damaged: the whole one runs the verb; both damaged: oclif does.
      for (const [bundle, oclif] of [
        ['quick.cjs', false],
        ['tapir.cjs', true],
      ] as const) {
        await damage(join(root, 'dist', bundle))
        const snap = await run(['tapir:snap', '--interactiveOnly', '--state', state()], {}, root)
        expect({name, bundle, exitCode: snap.exitCode, oclif: snap.oclif, stderr: snap.stderr}).toEqual({
          name,
          bundle,
          exitCode: 0,
          oclif,
          stderr: '',
        })
        expect(snap.stdout).toContain('- button "Sign in" [ref=e4]')
      }
      for (const bundle of ['quick.cjs', 'tapir.cjs']) cpSync(join(ROOT, 'dist', bundle), join(root, 'dist', bundle))
    }
  }, 120_000)

  // Node 22.1+ keeps compiled code itself (module.enableCompileCache); bin/run.cjs keeps its own on Node 20.
  it.skipIf('enableCompileCache' in process.getBuiltinModule('node:module'))(
    'keeps the bundle compiled on Node 20 in a folder only this user can enter, and compiles afresh when it does not fit',
    async () => {
      const temp = join(dir.path, 'tmp')
      const folder = join(temp, `tapir-compile-cache-${process.getuid!()}`)
      const snap = async () => {
        const result = await run(['tapir:snap', '--interactiveOnly', '--state', state()], {TMPDIR: temp})
        expect({exitCode: result.exitCode, stderr: result.stderr}).toEqual({exitCode: 0, stderr: ''})
        expect(result.stdout).toContain('- button "Sign in" [ref=e4]')
      }
      mkdirSync(temp)
      await snap()
      const [cache, ...others] = readdirSync(folder)
      expect(others).toEqual([])
      expect(cache).toMatch(/^quick\.cjs-[0-9a-f]{12}-\d+-\d+-v20\.\d+\.\d+\.v8$/)
      expect(statSync(folder).mode & 0o777).toBe(0o700)
      expect(statSync(join(folder, cache!)).mode & 0o777).toBe(0o600)
      // Used as it is, and left alone.
      const made = readFileSync(join(folder, cache!))
      await snap()
      expect(readFileSync(join(folder, cache!)).equals(made)).toBe(true)
      // Damaged: V8 refuses it, the bundle compiles afresh and the cache is made again.
      writeFileSync(join(folder, cache!), 'not V8 code')
      await snap()
      expect(readFileSync(join(folder, cache!)).equals(made)).toBe(false)
      expect(readFileSync(join(folder, cache!)).length).toBeGreaterThan(1000)
      // A folder others may enter is not read, nor written to.
      rmSync(folder, {recursive: true})
      mkdirSync(folder, {mode: 0o755})
      chmodSync(folder, 0o755)
      writeFileSync(join(folder, cache!), 'planted')
      await snap()
      expect(readdirSync(folder)).toEqual([cache])
      expect(readFileSync(join(folder, cache!), 'utf8')).toBe('planted')
    },
    60_000,
  )

  // V8 checks a code cache against its source's length alone, and npm installs every file with one
  // fixed modification time: an upgraded bundle of the same size must not run the old one's code.
  it.skipIf('enableCompileCache' in process.getBuiltinModule('node:module'))(
    'on Node 20, never runs the cached code of a bundle replaced by one of the same size and time',
    async () => {
      const root = join(dir.path, 'same-size')
      mkdirSync(join(root, 'dist'), {recursive: true})
      cpSync(join(ROOT, 'bin'), join(root, 'bin'), {recursive: true})
      writeFileSync(join(root, 'package.json'), '{"name":"tapir","version":"0.0.0"}')
      const temp = join(dir.path, 'same-size-tmp')
      mkdirSync(temp)
      const npmTime = new Date('1985-10-26T08:15:00Z')
      const bundle = join(root, 'dist', 'quick.cjs')
      for (const version of ['A', 'B']) {
        writeFileSync(bundle, `exports.runLine = async () => (process.stdout.write('version ${version}\\n'), true)\n`)
        utimesSync(bundle, npmTime, npmTime)
        for (let time = 0; time < 2; time++)
          expect(await run(['status'], {TMPDIR: temp}, root)).toMatchObject({stdout: `version ${version}`})
      }
    },
    60_000,
  )

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
      quick: true,
      oclif: false,
      stderr: '✗ Unexpected argument: --help. See `tapir tapir:find --help`.',
    })
  }, 60_000)

  it('loads a package the bundle leaves in node_modules when a verb needs it (perf_run reads YAML)', async () => {
    const scenario = join(dir.path, 'broken.yaml')
    await execa('sh', ['-c', `printf 'name: broken\\nsteps: [\\n' > "${scenario}"`])
    const result = await run(['tapir:perf_run', scenario, '--state', state()])
    expect(result).toMatchObject({exitCode: 1, quick: true, whole: false, oclif: false})
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
