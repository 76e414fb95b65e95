#!/usr/bin/env node
// Part of `npm run build`, after tsc: two bundles, each one file that runs a command line alone.
// dist/quick.cjs holds the verbs and the commands run as often (src/commands/quick-list.ts);
// dist/tapir.cjs holds every command. Loading some 200 files one by one was most of a verb's
// start-up; one file is read and compiled at once (and, on Node 22, kept compiled between runs
// by Node's own compile cache). Reading and compiling grow with the file, so the lines run most
// load the smaller one. A process loads one bundle's modules, never a mix: bin/run.cjs runs a line
// from the whole bundle only after the quick one left it untouched.
import {readFileSync} from 'node:fs'
import {dirname, join, relative} from 'node:path'
import {fileURLToPath} from 'node:url'
import {build} from 'esbuild'

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..')
const OUT_DIR = join(ROOT, 'dist')

// In one file every module's import.meta.url would be the bundle's: each keeps its own place in
// dist/ (where background-sim.ts finds the sim, flutter-app.ts the supervisor, ...).
const ownUrl = {
  name: 'own-import-meta-url',
  setup(esbuild) {
    esbuild.onLoad({filter: /[\\/]dist[\\/].*\.js$/}, (args) => {
      const source = readFileSync(args.path, 'utf8')
      if (!source.includes('import.meta')) return undefined
      const place = relative(OUT_DIR, args.path).split('\\').join('/')
      return {contents: source.replaceAll('import.meta.url', `new URL(${JSON.stringify(place)}, __bundleUrl).href`), loader: 'js'}
    })
  },
}

await build({
  absWorkingDir: ROOT,
  entryPoints: {quick: 'dist/commands/quick.js', tapir: 'dist/commands/main.js'},
  outdir: OUT_DIR,
  outExtension: {'.js': '.cjs'},
  bundle: true,
  platform: 'node',
  format: 'cjs',
  target: 'node20',
  // Packages few lines use (perf_run's YAML reader, a11y's image decoders, colour for a terminal)
  // load from node_modules when first used.
  external: ['yaml', 'diff', 'web-tree-sitter', '@modelcontextprotocol/sdk', 'pngjs', 'jpeg-js', 'chalk'],
  // import() becomes require(): on Node 20 bin/run.cjs compiles a bundle through node:vm, whose
  // scripts have no import() of their own, and Node 20.19+ requires an ES module as well.
  supported: {'dynamic-import': false},
  banner: {js: "const __bundleUrl = require('node:url').pathToFileURL(__filename).href;"},
  plugins: [ownUrl],
  // import.meta.resolve runs only from the TypeScript sources (FROM_SOURCES), never from dist/.
  logOverride: {'empty-import-meta': 'silent'},
  logLevel: 'warning',
})
