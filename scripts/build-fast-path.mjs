#!/usr/bin/env node
// Part of `npm run build`, after tsc: bundles what a plain `tapir <command>` run loads, from dist/,
// into dist/fast/: direct.cjs reads and runs a catalogue verb without oclif, verbs.cjs holds oclif
// and the verb commands (tapir:run, and the command lines direct.cjs leaves to oclif), all.cjs the
// rest. Each is compiled once to keep V8's code for it, and stamped with every file it was made
// from (bin/fast-path.cjs checks them).
import {execFile} from 'node:child_process'
import {mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {join, relative, sep} from 'node:path'
import {pathToFileURL} from 'node:url'
import {promisify} from 'node:util'
import {build} from 'esbuild'
import {BUNDLES, FAST_DIR, ROOT, bundleFor, hashOf} from '../bin/fast-path.cjs'
import {lazyModulesPlugin} from './lazy-modules.mjs'

// Loaded when needed, from node_modules: dev-only TypeScript support, and the large packages
// only some commands use (mcp:serve; install's Dart parser, YAML reader and diff; the YAML of
// perf_run and perf_campaign), which their code loads on first use. Every byte left out is a byte
// no verb reads at start-up.
const MINIFY = process.env.TAPIR_FAST_MINIFY !== '0'
const EXTERNAL = ['typescript', 'source-map-support', '@modelcontextprotocol/sdk', 'web-tree-sitter', 'diff', 'yaml']

// oclif's logger names the `debug` package as it loads; the fast path gives oclif a logger of
// its own unless DEBUG is set (bin/fast-path.cjs), so the package loads when first called instead.
const lazyDebug = {
  name: 'lazy-debug',
  setup(esbuild) {
    esbuild.onResolve({filter: /^debug$/}, (args) =>
      args.pluginData?.lazyDebug ? undefined : {path: 'debug', namespace: 'lazy-debug', pluginData: {resolveDir: args.resolveDir}},
    )
    esbuild.onLoad({filter: /.*/, namespace: 'lazy-debug'}, (args) => ({
      contents: "let debug; module.exports = (...args) => (debug ??= require('debug'))(...args)",
      resolveDir: args.pluginData.resolveDir,
      pluginData: {lazyDebug: true},
      loader: 'js',
    }))
  },
}

// Modules that code in the bundle loads as it starts but that a verb run never calls get
// stand-ins (scripts/lazy-modules.mjs) that load them on first use: Node's TLS and HTTPS (ws, for
// wss://), zlib (ws, for compressed messages), readline, perf_hooks and child_process (oclif's
// prompts, timings and Windows shell check), and the packages oclif uses only to find commands
// on disk, match plugin names, render help templates, read rc files (lilconfig) and spin. Of
// wsl-utils oclif reads isWsl on every start; the rest of it would start child_process.
const LAZY = {
  builtins: ['https', 'tls', 'zlib', 'readline', 'perf_hooks', 'child_process'],
  packages: ['tinyglobby', 'minimatch', 'ejs', 'cli-spinners', 'lilconfig'],
  partial: {'wsl-utils': {isWsl: "require('is-wsl').default"}},
}

// REACHABLE is what oclif is shown as the command list: filled by bin/fast-path.cjs per run,
// which also writes what it verified with the bundle's writeAtomic.
const entryOf = (module, name) => `export {execute} from '@oclif/core/execute'
export {writeAtomic} from './dist/lib/write-atomic.js'
export {${name} as COMMANDS} from './dist/commands/${module}'
export const REACHABLE = {}
`
// The bundle of a verb read and run without oclif (src/commands/direct-verb.ts).
const DIRECT_ENTRY = `export {runVerbDirectly} from './dist/commands/direct-verb.js'
export {writeAtomic} from './dist/lib/write-atomic.js'
`
// Each bundle is warmed by a run of the commands it serves (a verb, a session command), which
// compiles what a real run runs, connection included; V8's code for it is kept beside it.
const KINDS = [
  {files: BUNDLES.direct, entry: DIRECT_ENTRY, warm: ['tapir:snap'], warmed: '[ref=e'},
  {files: BUNDLES.verbs, entry: entryOf('verb-commands.js', 'VERB_COMMANDS'), warm: ['tapir:snap'], warmed: '[ref=e'},
  {files: BUNDLES.all, entry: entryOf('index.js', 'COMMANDS'), warm: ['status'], warmed: '"answering": true'},
]

// In one file every module's import.meta.url would be the bundle's; each keeps its own place.
const ownUrl = {
  name: 'own-import-meta-url',
  setup(esbuild) {
    esbuild.onLoad({filter: /[\\/]dist[\\/].*\.js$/}, (args) => {
      const source = readFileSync(args.path, 'utf8')
      if (!source.includes('import.meta')) return undefined
      const place = relative(FAST_DIR, args.path).split(sep).join('/')
      const contents = source.replaceAll('import.meta.url', `new URL(${JSON.stringify(place)}, __tapirBundleUrl).href`)
      // Any other import.meta use would be wrong in the bundle; background-sim.ts resolves tsx
      // only when it runs from the .ts sources, never from dist/.
      const rest = contents.replaceAll('import.meta.resolve', '').match(/import\.meta\b.{0,20}/)
      if (rest) throw new Error(`${args.path} uses ${rest[0]}, which the fast-path bundle cannot keep`)
      return {contents, loader: 'js'}
    })
  },
}

// mcp:serve would reach the MCP SDK's CommonJS build through those requires; it starts once per
// client session anyway, so it keeps the ordinary path and the SDK's ES modules.
const ORDINARY_ONLY = new Set(['mcp:serve'])

// Every command, for the stamps: each names the ones its bundle serves; the direct one, the verbs.
const {COMMANDS} = await import(pathToFileURL(join(ROOT, 'dist', 'commands', 'index.js')).href)
const {VERBS} = await import(pathToFileURL(join(ROOT, 'dist', 'lib', 'verbs', 'index.js')).href)
const servedBy = (files) =>
  files === BUNDLES.direct
    ? VERBS.map((verb) => `tapir:${verb.name}`)
    : Object.keys(COMMANDS).filter((id) => !ORDINARY_ONLY.has(id) && bundleFor(id) === files)

rmSync(FAST_DIR, {recursive: true, force: true})
mkdirSync(FAST_DIR, {recursive: true})
const scratch = mkdtempSync(join(tmpdir(), 'tapir-warm-'))
const {startSim} = await import(pathToFileURL(join(ROOT, 'dist', 'sim', 'index.js')).href)
const sim = await startSim({mode: 'vm'})
try {
  for (const kind of KINDS) await buildBundle(kind)
} finally {
  await sim.close()
  rmSync(scratch, {recursive: true, force: true})
}

async function buildBundle({files, entry, warm, warmed}) {
  // A lazy package is loaded from node_modules as it is then; its package.json is stamped, so a
  // changed version (whose exports the stand-in might not name) makes the bundle stale.
  const lazyPackages = new Set()
  const {metafile} = await build({
    absWorkingDir: ROOT,
    stdin: {contents: entry, resolveDir: ROOT, loader: 'js'},
    bundle: true,
    platform: 'node',
    format: 'cjs',
    target: 'node20',
    outfile: files.bundle,
    external: EXTERNAL,
    // V8 on Node 20 loses a script's dynamic-import callback when its code comes from the code
    // cache (and the vm loader that would keep it is experimental and warns), so the bundle has no
    // import(): esbuild turns each into a require, which loads the same CommonJS packages.
    supported: {'dynamic-import': false},
    banner: {js: "const __tapirBundleUrl = require('node:url').pathToFileURL(__filename).href;"},
    plugins: [
      ownUrl,
      lazyDebug,
      lazyModulesPlugin({...LAZY, fromDir: FAST_DIR, stamped: (file) => lazyPackages.add(relative(ROOT, file))}),
    ],
    // Every byte is read and kept in memory on every run, so names are shortened too: a stack
    // trace from the bundle names functions by letters; TAPIR_NO_FAST_PATH=1 gives the full ones.
    minify: MINIFY,
    metafile: true,
    logLevel: 'warning',
    logOverride: {'empty-import-meta': 'silent'},
  })
  keepAscii(files.bundle)
  await warmUp(files, warm, warmed)
  const inputs = Object.keys(metafile.inputs).filter((path) => path !== '<stdin>' && !/^lazy(-debug)?:/.test(path))
  const stamp = {
    node: process.version,
    ids: servedBy(files),
    files: [files.entry, ...inputs, ...lazyPackages].map((path) => fileEntry(path.split(sep).join('/'))),
    cache: fileEntry(relative(ROOT, files.cache)),
  }
  writeFileSync(files.stamp, JSON.stringify(stamp))
  // What the build hashed, with each file's ctime: the fast path trusts a file's size and times
  // only as they were when its hash was known (bin/fast-path.cjs, unchanged).
  const verified = [...stamp.files, stamp.cache].map(([path, size, mtimeMs, sha1]) => [
    path,
    size,
    mtimeMs,
    sha1,
    statSync(join(ROOT, path)).ctimeMs,
  ])
  writeFileSync(files.verified, JSON.stringify(verified))
  console.log(
    `fast path: ${files.entry} (${(statSync(files.bundle).size / 1024).toFixed(0)} KB from ${inputs.length} files, ${stamp.ids.length} commands), code cache for Node ${process.version}`,
  )
}

/** A bundle that is all ASCII is read into a one-byte string, which is several times faster to
 *  read than the two-byte one a single wider character makes of it, and half the memory. esbuild
 *  escapes strings, templates and names, but not regular expressions, where `\uXXXX` means the
 *  same character; so every character it left is escaped. */
function keepAscii(bundle) {
  const source = readFileSync(bundle, 'utf8')
  // eslint-disable-next-line no-control-regex -- the range of ASCII starts at \x00
  const ascii = source.replace(/[^\x00-\x7f]/g, (unit, at) => {
    // After a backslash the escape would be read as a backslash and the letters "uXXXX".
    if (source[at - 1] === '\\') throw new Error(`${bundle}: a backslash before ${JSON.stringify(source.slice(at - 20, at + 20))}`)
    return `\\u${unit.charCodeAt(0).toString(16).padStart(4, '0')}`
  })
  if (ascii !== source) writeFileSync(bundle, ascii)
}

async function warmUp(files, argv, warmed) {
  const state = join(scratch, 'state.json')
  writeFileSync(state, JSON.stringify({vmServiceUri: sim.wsUri, device: 'sim', pid: null}), {mode: 0o600})
  const warm = `
    import {writeFileSync} from 'node:fs'
    const {BUNDLES, fastLoadOptions, loadBundle} = await import(${JSON.stringify(pathToFileURL(join(ROOT, 'bin', 'fast-path.cjs')).href)})
    const files = BUNDLES[${JSON.stringify(files.kind)}]
    const stamp = {bundleFiles: files, node: process.version}
    const argv = ${JSON.stringify(argv)}
    const bundle = loadBundle({argv, stamp, produceCache: (data) => writeFileSync(files.cache, data)})
    if (bundle.runVerbDirectly) {
      if (!(await bundle.runVerbDirectly(argv))) throw new Error('the direct bundle left ' + argv.join(' ') + ' to oclif')
    } else {
      await bundle.execute({args: argv, loadOptions: fastLoadOptions(stamp)})
    }`
  // V8 keeps code only for the flags it was compiled with: the warm-up runs with none, as tapir does.
  const env = {...process.env}
  delete env.NODE_OPTIONS
  delete env.DEBUG
  // Asynchronous: the sim answers from this very process.
  const run = await promisify(execFile)(process.execPath, ['--input-type=module', '-e', warm], {
    cwd: scratch,
    env: {...env, HOME: scratch, TAPIR_STATE_FILE: state, NO_COLOR: '1', NODE_ENV: 'production'},
  }).catch((error) => error)
  if (run instanceof Error || !run.stdout.includes(warmed)) {
    throw new Error(`the fast-path warm-up run of ${argv.join(' ')} did not end as expected (exit ${run.code ?? 0}):\n${run.stderr}`)
  }
}

function fileEntry(path) {
  const {size, mtimeMs} = statSync(join(ROOT, path))
  const sha1 = hashOf(join(ROOT, path))
  if (!sha1) throw new Error(`${path} is not a regular file the fast path can vouch for`)
  return [path, size, mtimeMs, sha1]
}
