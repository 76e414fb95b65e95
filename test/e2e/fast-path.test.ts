import {execFileSync} from 'node:child_process'
import {createHash} from 'node:crypto'
import {cpSync, existsSync, mkdirSync, readFileSync, renameSync, rmSync, statSync, symlinkSync, writeFileSync} from 'node:fs'
import {dirname, join, relative} from 'node:path'
import {execa} from 'execa'
import {afterAll, describe, expect, it} from 'vitest'
import {ROOT, sessionFile, tempDir} from '../helpers/cli.js'
import {withSimSession} from '../helpers/sim.js'

// A plain command run is served by dist/fast/ (bin/fast-path.cjs) when it matches what dist/ and
// node_modules hold; these tests change files, so each runs a copy of the built package.
const scratch = tempDir('tapir-fast-')
afterAll(() => scratch.remove())

let copies = 0
function packageCopy(): string {
  const root = join(scratch.path, `package-${++copies}`)
  // Without the build's records of what it verified, as the package leaves them out (package.json files).
  for (const part of ['bin', 'dist', 'package.json'])
    cpSync(join(ROOT, part), join(root, part), {recursive: true, filter: (source) => !source.endsWith('.verified.json')})
  symlinkSync(join(ROOT, 'node_modules'), join(root, 'node_modules'))
  return root
}

interface Run {
  stdout: string
  stderr: string
  exitCode: number
  /** Whether a prebuilt bundle served the run, and which, as Node's module log tells. */
  bundled: boolean
  bundle: string | undefined
  /** Every bundle loaded, in order: `direct` leaves some command lines to oclif's bundle. */
  loaded: string[]
}

const BUNDLES = ['direct', 'verbs', 'all']

async function tapirIn(root: string, args: string[], env: Record<string, string> = {}): Promise<Run> {
  const result = await execa(process.execPath, [join(root, 'bin', 'run.cjs'), ...args], {
    cwd: scratch.path,
    env: {HOME: scratch.path, NO_COLOR: '1', NODE_ENV: 'production', NODE_DEBUG: 'module', ...env},
    reject: false,
    timeout: 60_000,
  })
  const lines = result.stderr.split('\n')
  const loaded = lines.flatMap((line) => BUNDLES.filter((name) => line.includes(`load "${join(root, 'dist', 'fast', `${name}.cjs`)}"`)))
  // The ordinary path loads oclif from node_modules; no bundle does.
  const ordinary = lines.some((line) => / load "[^"]*[\\/]node_modules[\\/]@oclif[\\/]core[\\/]lib[\\/]execute\.js"/.test(line))
  const bundle = ordinary ? undefined : loaded.at(-1)
  return {
    stdout: result.stdout,
    stderr: lines.filter((line) => !line.startsWith('MODULE ')).join('\n'),
    exitCode: result.exitCode ?? -1,
    bundled: bundle !== undefined,
    bundle,
    loaded,
  }
}

// The tests run verbs, which the direct bundle serves.
const stampOf = (root: string, bundle = 'direct') => join(root, 'dist', 'fast', `${bundle}.stamp.json`)
const readStamp = (root: string) =>
  JSON.parse(readFileSync(stampOf(root), 'utf8')) as {node: string; cache: [string, number, number, string]}

describe('the fast path', () => {
  const s = withSimSession()
  const state = () => sessionFile(scratch.path, s.sim.wsUri)
  // Outputs that must not depend on the path taken: a connected verb, an app-side refusal, a bad
  // flag, a run, and a scenario file read by the YAML package the bundle leaves in node_modules.
  const scenario = join(scratch.path, 'broken.yaml')
  writeFileSync(scenario, 'name: broken\nsteps: [\n')
  // Each with the bundle that serves it: a flag the direct reader does not know goes to oclif's.
  const cases = (): Array<[string[], string]> => [
    [['tapir:snap', '--interactiveOnly', '--state', state()], 'direct'],
    [['tapir:tap', '--ref=e999', '--state', state()], 'direct'],
    [['tapir:snap', '--bogus', '--state', state()], 'verbs'],
    [['tapir:snap', '--depth', '1.5', '--state', state()], 'verbs'],
    [['tapir:find', '--state', state()], 'direct'],
    [['tapir:run', 'snap --interactiveOnly', 'tap --ref=e999', '--continue', '--state', state()], 'verbs'],
    [['tapir:perf_run', scenario, '--state', state()], 'direct'],
    [['tapir:perf_compare', '--a', scenario, scenario, '--state', state()], 'direct'],
  ]

  it('serves a plain verb from the bundle the build made, with the same output as the ordinary path', async () => {
    const fresh = packageCopy()
    const ordinary = packageCopy()
    rmSync(join(ordinary, 'dist', 'fast'), {recursive: true})
    for (const [args, bundle] of cases()) {
      const fast = await tapirIn(fresh, args)
      const plain = await tapirIn(ordinary, args)
      expect(fast.bundle, args.join(' ')).toBe(bundle)
      expect(plain.bundled, args.join(' ')).toBe(false)
      expect(fast, args.join(' ')).toEqual({...plain, bundled: true, bundle, loaded: fast.loaded})
    }
    expect((await tapirIn(fresh, ['tapir:snap', '--interactiveOnly', '--state', state()])).stdout).toContain('- button "Sign in" [ref=e4]')
  }, 120_000)

  it('serves a verb from the direct bundle, which holds no oclif, tapir:run from the verbs, and the rest from the other', async () => {
    const root = packageCopy()
    expect(await tapirIn(root, ['tapir:snap', '--state', state()])).toMatchObject({bundle: 'direct', loaded: ['direct'], exitCode: 0})
    expect(await tapirIn(root, ['tapir:run', 'snap', '--state', state()])).toMatchObject({bundle: 'verbs', loaded: ['verbs'], exitCode: 0})
    const status = await tapirIn(root, ['status', '--state', state()])
    expect(status).toMatchObject({bundle: 'all', exitCode: 0, stderr: ''})
    expect(status.stdout).toContain('"answering": true')
    const madeFrom = (bundle: string) =>
      (JSON.parse(readFileSync(stampOf(root, bundle), 'utf8')) as {files: Array<[string]>}).files.map(([path]) => path)
    for (const sessionOnly of ['dist/commands/start.js', 'dist/commands/install.js', 'dist/commands/doctor.js']) {
      expect(madeFrom('verbs')).not.toContain(sessionOnly)
      expect(madeFrom('all')).toContain(sessionOnly)
    }
    expect(madeFrom('direct')).toContain('dist/commands/direct-argv.js')
    expect(madeFrom('direct').filter((path) => path.includes('@oclif/'))).toEqual([])
  }, 60_000)

  it('takes a reader that closes the pipe early (`| head -1`) as no error, as the ordinary path does, and a full disk as one', async () => {
    const root = packageCopy()
    for (const env of [{}, {TAPIR_NO_FAST_PATH: '1'}]) {
      const child = execa(process.execPath, [join(root, 'bin', 'run.cjs'), 'tapir:snap', '--json', '--state', state()], {
        env: {HOME: scratch.path, NO_COLOR: '1', ...env},
        reject: false,
      })
      // Closed before tapir writes a byte (it takes ~100 ms to start): every write meets EPIPE.
      child.stdout?.destroy()
      const result = await child
      expect({exitCode: result.exitCode, stderr: result.stderr}, JSON.stringify(env)).toEqual({exitCode: 0, stderr: ''})
    }
    // Any other failure to write is one line and exit 1 (here a full disk).
    const full = await execa(`"${process.execPath}" "${join(root, 'bin', 'run.cjs')}" tapir:snap --state "${state()}" > /dev/full`, {
      shell: true,
      env: {HOME: scratch.path, NO_COLOR: '1'},
      reject: false,
    })
    expect({exitCode: full.exitCode, stderr: full.stderr}).toEqual({
      exitCode: 1,
      stderr: '✗ Cannot write the output: ENOSPC: no space left on device, write',
    })
  }, 60_000)

  it("prints oclif's debug lines when DEBUG asks for them, as the ordinary path does", async () => {
    const fresh = packageCopy()
    const ordinary = packageCopy()
    rmSync(join(ordinary, 'dist', 'fast'), {recursive: true})
    const debugLines = (run: Run) => run.stderr.split('\n').filter((line) => / oclif:main process\.argv: /.test(line))
    const fast = await tapirIn(fresh, ['tapir:snap', '--state', state()], {DEBUG: 'oclif:main'})
    const plain = await tapirIn(ordinary, ['tapir:snap', '--state', state()], {DEBUG: 'oclif:main'})
    expect(fast).toMatchObject({bundle: 'verbs', exitCode: 0})
    expect(debugLines(fast)).toHaveLength(1)
    expect(debugLines(plain)).toHaveLength(1)
    expect((await tapirIn(fresh, ['tapir:snap', '--state', state()])).stderr).toBe('')
  }, 60_000)

  it('leaves the modules a verb run never calls to load on first use: TLS, HTTPS, zlib, readline, perf_hooks, child_process', async () => {
    const root = packageCopy()
    const probe = join(scratch.path, 'loaded-modules.cjs')
    const list = join(scratch.path, 'loaded-modules.txt')
    writeFileSync(
      probe,
      "process.on('exit', () => require('node:fs').writeFileSync(process.env.LOADED_LIST, process.moduleLoadList.join('\\n')))\n",
    )
    // --require is no V8 flag, so the code cache still serves.
    const run = await execa(process.execPath, ['--require', probe, join(root, 'bin', 'run.cjs'), 'tapir:snap', '--state', state()], {
      env: {HOME: scratch.path, NO_COLOR: '1', LOADED_LIST: list},
      reject: false,
    })
    expect(run.exitCode).toBe(0)
    expect(run.stdout).toContain('[ref=e1]')
    const loaded = readFileSync(list, 'utf8').split('\n')
    expect(loaded).toContain('NativeModule net')
    for (const name of ['https', 'tls', 'zlib', 'readline', 'perf_hooks', 'child_process'])
      expect(loaded, name).not.toContain(`NativeModule ${name}`)
  }, 60_000)

  it('runs the same program as bin/run.js, its former name, which older agent configs still start', async () => {
    const root = packageCopy()
    const formerName = await execa(process.execPath, [join(root, 'bin', 'run.js'), 'tapir:snap', '--interactiveOnly', '--state', state()], {
      env: {HOME: scratch.path, NO_COLOR: '1', NODE_DEBUG: 'module'},
      reject: false,
    })
    expect(formerName.stderr).toContain(`load "${join(root, 'dist', 'fast', 'direct.cjs')}"`)
    const formerStderr = formerName.stderr
      .split('\n')
      .filter((line) => !line.startsWith('MODULE '))
      .join('\n')
    const current = await tapirIn(root, ['tapir:snap', '--interactiveOnly', '--state', state()])
    expect(current).toMatchObject({bundle: 'direct', exitCode: 0})
    expect({stdout: formerName.stdout, stderr: formerStderr, exitCode: formerName.exitCode}).toEqual({
      stdout: current.stdout,
      stderr: current.stderr,
      exitCode: 0,
    })
  }, 60_000)

  it("loads a bundle whose folder is a symbolic link, and leaves Node's module loaders as they were", async () => {
    const root = packageCopy()
    renameSync(join(root, 'dist', 'fast'), join(root, 'dist', 'fast-built'))
    symlinkSync(join(root, 'dist', 'fast-built'), join(root, 'dist', 'fast'))
    const run = await execa(process.execPath, [join(root, 'bin', 'run.cjs'), 'tapir:snap', '--state', state()], {
      env: {HOME: scratch.path, NO_COLOR: '1', NODE_DEBUG: 'module'},
      reject: false,
    })
    expect(run.exitCode).toBe(0)
    // Node loads it by its real path.
    expect(run.stderr).toContain(`load "${join(root, 'dist', 'fast-built', 'direct.cjs')}"`)
    const loaders = await execa(process.execPath, [
      '-e',
      `const Module = require('node:module'); const before = Object.keys(Module._extensions).join(' ')
       const fast = require(${JSON.stringify(join(root, 'bin', 'fast-path.cjs'))})
       for (const files of Object.values(fast.BUNDLES)) fast.loadBundle({argv: ['tapir:snap'], stamp: fast.readStamp(files)})
       console.log(before === Object.keys(Module._extensions).join(' '))`,
    ])
    expect(loaders.stdout).toBe('true')
  }, 60_000)

  it('points every stand-in of a package at a file that is there', () => {
    // The direct bundle holds none: the packages behind them are oclif's.
    for (const bundle of ['verbs', 'all']) {
      const source = readFileSync(join(ROOT, 'dist', 'fast', `${bundle}.cjs`), 'latin1')
      const targets = [...source.matchAll(/"(\.\.\/\.\.\/node_modules\/[^"]+)"/g)].map((match) => match[1]!)
      expect(targets.length, bundle).toBeGreaterThanOrEqual(5)
      for (const target of targets) expect(existsSync(join(ROOT, 'dist', 'fast', target)), target).toBe(true)
    }
  })

  it('builds bundles of ASCII only, which Node reads into one-byte strings', () => {
    for (const bundle of BUNDLES) {
      const bytes = readFileSync(join(ROOT, 'dist', 'fast', `${bundle}.cjs`))
      expect(
        bytes.findIndex((byte) => byte > 0x7f),
        bundle,
      ).toBe(-1)
    }
  })

  it('leaves help, --version, unknown commands and mcp:serve to the ordinary path', async () => {
    const root = packageCopy()
    for (const args of [['--help'], ['tapir:snap', '--help'], ['--version'], ['tapir:nope'], [], ['mcp:serve', '--timeout=0']]) {
      expect((await tapirIn(root, args)).bundled, args.join(' ')).toBe(false)
    }
  }, 60_000)

  it('bypasses a bundle older than a file it was built from', async () => {
    const root = packageCopy()
    const changed = join(root, 'dist', 'commands', 'tapir-command.js')
    const source = readFileSync(changed, 'utf8')
    expect(source).toContain('. See \\`tapir ${id} --help')
    writeFileSync(changed, source.replace('. See \\`tapir ${id} --help', '. Read \\`tapir ${id} --help'))
    const result = await tapirIn(root, ['tapir:snap', '--bogus'])
    expect(result).toMatchObject({bundled: false, exitCode: 1, stderr: '✗ Nonexistent flag: --bogus. Read `tapir tapir:snap --help`.'})
    // A file only the direct bundle holds: oclif's bundle serves; one both hold: neither does.
    const direct = packageCopy()
    const directOnly = join(direct, 'dist', 'commands', 'direct-verb.js')
    writeFileSync(directOnly, `${readFileSync(directOnly, 'utf8')}\n`)
    expect(await tapirIn(direct, ['tapir:snap', '--state', state()])).toMatchObject({bundle: 'verbs', loaded: ['verbs'], exitCode: 0})
    const shared = join(direct, 'dist', 'commands', 'verb-outcome.js')
    writeFileSync(shared, `${readFileSync(shared, 'utf8')}\n`)
    expect(await tapirIn(direct, ['tapir:snap', '--state', state()])).toMatchObject({bundled: false, loaded: [], exitCode: 0})
  }, 60_000)

  it('bypasses a bundle whose dependency in node_modules is not the one it was built from', async () => {
    // ws is in the bundles; ejs is left in node_modules behind a stand-in, and its package.json stamped.
    // A stale direct bundle leaves the verb to oclif's; a stale one of oclif's, to the ordinary path.
    const cases: Array<[string, string, string[], string | undefined]> = [
      ['direct', 'node_modules/ws/', ['tapir:snap'], 'verbs'],
      ['verbs', 'node_modules/ws/', ['tapir:run', 'snap'], undefined],
      ['verbs', 'node_modules/ejs/package.json', ['tapir:run', 'snap'], undefined],
    ]
    for (const [bundle, dependency, args, served] of cases) {
      const root = packageCopy()
      const stamp = JSON.parse(readFileSync(stampOf(root, bundle), 'utf8')) as {files: Array<[string, number, number, string]>}
      const entry = stamp.files.find(([path]) => path.startsWith(dependency))!
      entry[3] = '0'.repeat(40)
      entry[2] -= 1
      writeFileSync(stampOf(root, bundle), JSON.stringify(stamp))
      expect(await tapirIn(root, [...args, '--state', state()]), `${bundle} ${dependency}`).toMatchObject({bundle: served, exitCode: 0})
    }
  }, 60_000)

  it('hashes the files of a copy once, as an installed package has other mtimes than the build, then trusts what it saw', async () => {
    // cpSync gives every file a new mtime, as npm's unpacking does.
    const root = packageCopy()
    const record = join(root, 'dist', 'fast', 'direct.verified.json')
    const snap = ['tapir:snap', '--interactiveOnly', '--state', state()]
    // A file is recorded only once it is two seconds old: the copied ones are new (the files of
    // node_modules, linked, are not).
    expect(await tapirIn(root, snap)).toMatchObject({bundle: 'direct', exitCode: 0})
    const paths = () => (JSON.parse(readFileSync(record, 'utf8')) as Array<[string]>).map(([path]) => path)
    expect(existsSync(record) ? paths().filter((path) => path.startsWith('dist/')) : []).toEqual([])
    await new Promise((resolve) => setTimeout(resolve, 2_100))
    expect(await tapirIn(root, snap)).toMatchObject({bundle: 'direct', exitCode: 0})
    const written = statSync(record).mtimeMs
    const seen = JSON.parse(readFileSync(record, 'utf8')) as Array<[string, number, number, string]>
    expect(seen.map(([path]) => path)).toEqual(
      expect.arrayContaining(['dist/fast/direct.cjs', 'dist/fast/direct.cjs.cache', 'dist/commands/direct-argv.js']),
    )
    // The next run finds every file as the record saw it: it hashes nothing, so it writes nothing.
    expect(await tapirIn(root, snap)).toMatchObject({bundle: 'direct', exitCode: 0})
    expect(statSync(record).mtimeMs).toBe(written)

    // A file changed since: its mtime is not the one the record saw, so the hash decides, and finds
    // it; the verb is left to oclif's bundle, which holds no such file.
    const changed = join(root, 'dist', 'commands', 'direct-argv.js')
    writeFileSync(changed, `${readFileSync(changed, 'utf8')}\n`)
    expect(await tapirIn(root, snap)).toMatchObject({bundle: 'verbs', loaded: ['verbs'], exitCode: 0})
  }, 60_000)

  it('writes its record through no symbolic link, and reads none that is a FIFO or too large', async () => {
    const root = packageCopy()
    await new Promise((resolve) => setTimeout(resolve, 2_100))
    const record = join(root, 'dist', 'fast', 'direct.verified.json')
    const elsewhere = join(scratch.path, 'not-tapirs.json')
    writeFileSync(elsewhere, 'left alone')
    symlinkSync(elsewhere, record)
    expect(await tapirIn(root, ['tapir:snap', '--state', state()])).toMatchObject({bundle: 'direct', exitCode: 0})
    expect(readFileSync(elsewhere, 'utf8')).toBe('left alone')
    rmSync(record)
    execFileSync('mkfifo', [record])
    const started = Date.now()
    expect(await tapirIn(root, ['tapir:snap', '--state', state()])).toMatchObject({bundle: 'direct', exitCode: 0})
    expect(Date.now() - started).toBeLessThan(20_000)
    rmSync(record)
    writeFileSync(record, `[${' '.repeat(5 * 1024 * 1024)}]`)
    expect(await tapirIn(root, ['tapir:snap', '--state', state()])).toMatchObject({bundle: 'direct', exitCode: 0})
  }, 60_000)

  it('trusts no record that is not JSON, or that names another hash than the build', async () => {
    const root = packageCopy()
    const record = join(root, 'dist', 'fast', 'direct.verified.json')
    const changed = join(root, 'dist', 'commands', 'direct-argv.js')
    writeFileSync(changed, `${readFileSync(changed, 'utf8')}\n`)
    const {size, mtimeMs, ctimeMs} = statSync(changed)
    const sha1 = createHash('sha1').update(readFileSync(changed)).digest('hex')
    for (const content of ['{not json', JSON.stringify([['dist/commands/direct-argv.js', size, mtimeMs, sha1, ctimeMs]])]) {
      writeFileSync(record, content)
      expect(await tapirIn(root, ['tapir:snap', '--state', state()]), content).toMatchObject({
        bundle: 'verbs',
        loaded: ['verbs'],
        exitCode: 0,
      })
    }
  }, 60_000)

  /** A copy that keeps the build's times to the nanosecond (cp -a), as a checkout the build ran in. */
  function copyKeepingTimes(): string {
    const root = join(scratch.path, `package-${++copies}`)
    mkdirSync(root)
    execFileSync('cp', ['-a', join(ROOT, 'bin'), join(ROOT, 'dist'), join(ROOT, 'package.json'), root])
    symlinkSync(join(ROOT, 'node_modules'), join(root, 'node_modules'))
    return root
  }

  /** Writes `bytes` over a file of the same size and sets its mtime back to the nanosecond
   *  (touch -r), as the pass did. */
  function replaceKeepingTimes(path: string, bytes: Buffer): void {
    expect(bytes.length).toBe(statSync(path).size)
    execFileSync('cp', ['-a', path, `${path}.times`])
    writeFileSync(path, bytes)
    execFileSync('touch', ['-r', `${path}.times`, path])
    rmSync(`${path}.times`)
    expect(statSync(path, {bigint: true}).mtimeNs).toBe(
      statSync(join(ROOT, relative(dirname(dirname(dirname(path))), path)), {bigint: true}).mtimeNs,
    )
  }

  it('never runs a bundle replaced by other bytes of the same size with its mtime set back', async () => {
    const root = copyKeepingTimes()
    const bundle = join(root, 'dist', 'fast', 'direct.cjs')
    const impostor = 'process.stdout.write("not the build\\n"); process.exit(7)\n'
    replaceKeepingTimes(bundle, Buffer.from(impostor.padEnd(statSync(bundle).size, ' ')))
    const run = await tapirIn(root, ['tapir:snap', '--interactiveOnly', '--state', state()])
    expect(run).toMatchObject({exitCode: 0, loaded: ['verbs']})
    expect(run.stdout).not.toContain('not the build')
  }, 60_000)

  it('a code cache corrupted in the middle, with its size and mtime kept, is not given to V8', async () => {
    const root = copyKeepingTimes()
    const cache = join(root, readStamp(root).cache[0])
    const bytes = readFileSync(cache)
    bytes.fill(0xa5, bytes.length / 2, bytes.length / 2 + 4096)
    replaceKeepingTimes(cache, bytes)
    for (let run = 0; run < 2; run++)
      expect(await tapirIn(root, ['tapir:snap', '--interactiveOnly', '--state', state()])).toMatchObject({exitCode: 0, bundle: 'direct'})
  }, 60_000)

  it('still runs the bundle when V8 refuses its code cache or the cache is from another Node', async () => {
    const refused = packageCopy()
    const stamp = readStamp(refused)
    const cache = join(refused, stamp.cache[0])
    writeFileSync(cache, Buffer.alloc(readFileSync(cache).length, 7))
    // The stamp vouches for the damaged cache, so V8 itself must notice and compile from source.
    stamp.cache = [stamp.cache[0], stamp.cache[1], 0, createHash('sha1').update(readFileSync(cache)).digest('hex')]
    writeFileSync(stampOf(refused), JSON.stringify(stamp))
    const otherNode = packageCopy()
    writeFileSync(stampOf(otherNode), JSON.stringify({...readStamp(otherNode), node: 'v0.0.0'}))
    for (const root of [refused, otherNode]) {
      const result = await tapirIn(root, ['tapir:snap', '--interactiveOnly', '--state', state()])
      expect(result).toMatchObject({bundled: true, exitCode: 0, stderr: ''})
      expect(result.stdout).toContain('- button "Sign in" [ref=e4]')
    }
  }, 60_000)
})

describe('a damaged or hostile fast-path build falls back to the ordinary path', () => {
  const s = withSimSession()
  const snap = () => ['tapir:snap', '--interactiveOnly', '--state', sessionFile(scratch.path, s.sim.wsUri)]
  const ordinary = async (args: string[], change: (root: string) => void = () => {}) => {
    const root = packageCopy()
    rmSync(join(root, 'dist', 'fast'), {recursive: true})
    change(root)
    return tapirIn(root, args)
  }
  // A verb is served by the direct bundle, else by oclif's: each damage is done to both.
  const VERB_BUNDLES = ['direct', 'verbs']
  const stampFiles = (root: string, bundle: string) =>
    JSON.parse(readFileSync(stampOf(root, bundle), 'utf8')) as {files: unknown[]; cache?: unknown}
  const writeStamps = (root: string, change: (stamp: Record<string, unknown>, bundle: string) => void) => {
    for (const bundle of VERB_BUNDLES) {
      const stamp = stampFiles(root, bundle) as Record<string, unknown>
      change(stamp, bundle)
      writeFileSync(stampOf(root, bundle), JSON.stringify(stamp))
    }
  }
  const bundleOf = (root: string, bundle: string) => join(root, 'dist', 'fast', `${bundle}.cjs`)
  const damageBundles = (root: string) => {
    for (const bundle of VERB_BUNDLES) writeFileSync(bundleOf(root, bundle), 'this is not JavaScript {')
  }

  it('a stamp that lists no files, beside a damaged bundle', async () => {
    const root = packageCopy()
    damageBundles(root)
    writeStamps(root, (stamp) => (stamp.files = []))
    const result = await tapirIn(root, snap())
    expect(result).toMatchObject({bundled: false, loaded: [], exitCode: 0, stderr: ''})
    expect(result.stdout).toContain('- button "Sign in" [ref=e4]')
  }, 60_000)

  it('a stamp that vouches for a damaged bundle: loading it fails, and the next in line serves', async () => {
    const root = packageCopy()
    damageBundles(root)
    const damaged = readFileSync(bundleOf(root, 'direct'))
    writeStamps(root, (stamp) => {
      const files = stamp.files as Array<[string, number, number, string]>
      files[0] = [files[0]![0], damaged.length, 0, createHash('sha1').update(damaged).digest('hex')]
    })
    const result = await tapirIn(root, snap())
    expect(result).toMatchObject({bundled: false, loaded: ['direct', 'verbs'], exitCode: 0, stderr: ''})
    expect(result.stdout).toContain('- button "Sign in" [ref=e4]')
  }, 60_000)

  it('a package.json without its oclif block: what the ordinary path says, no stack trace', async () => {
    const dropOclif = (root: string) => {
      const pjson = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as Record<string, unknown>
      delete pjson.oclif
      writeFileSync(join(root, 'package.json'), JSON.stringify(pjson))
    }
    const root = packageCopy()
    dropOclif(root)
    // oclif's own commands need the block; the direct bundle reads no package.json, so a verb still runs.
    const run = ['tapir:run', 'snap', ...snap().slice(2)]
    const result = await tapirIn(root, run)
    expect(result.stderr).not.toMatch(/^\s+at /m)
    expect(result).toEqual(await ordinary(run, dropOclif))
    expect(await tapirIn(root, snap())).toMatchObject({bundle: 'direct', exitCode: 0, stderr: ''})
  }, 60_000)

  it('a stamp naming /dev/zero, as a file it was built from and as its code cache: not read, and at once', async () => {
    const root = packageCopy()
    const zero = `${'../'.repeat(40)}dev/zero`
    writeStamps(root, (stamp) => {
      ;(stamp.files as unknown[]).push([zero, 0, 0, '0'.repeat(40)])
      stamp.cache = [zero, 0, 0, '0'.repeat(40)]
    })
    const began = Date.now()
    const result = await tapirIn(root, snap())
    expect(Date.now() - began).toBeLessThan(15_000)
    expect(result).toMatchObject({bundled: false, loaded: [], exitCode: 0, stderr: ''})
  }, 60_000)

  it('a stamp that is a FIFO, or too large to be one, is not waited on or read', async () => {
    const fifo = packageCopy()
    const huge = packageCopy()
    for (const bundle of VERB_BUNDLES) {
      rmSync(stampOf(fifo, bundle))
      execFileSync('mkfifo', [stampOf(fifo, bundle)])
      writeFileSync(stampOf(huge, bundle), `[${' '.repeat(8 * 1024 * 1024)}]`)
    }
    for (const root of [fifo, huge]) {
      const result = await tapirIn(root, snap())
      expect(result).toMatchObject({bundled: false, loaded: [], exitCode: 0, stderr: ''})
    }
  }, 60_000)
})
