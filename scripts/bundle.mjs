#!/usr/bin/env node
// Part of `npm run build`, after tsc: dist/cli/main.js and everything it imports, as one file,
// dist/tapir.cjs, which bin/run.cjs runs a catalogue verb from. Loading some 200 files one by one
// was most of a verb's start-up; one file is read and compiled at once (and, on Node 22, kept
// compiled between runs by Node's own compile cache).
import {readFileSync} from 'node:fs'
import {dirname, join, relative} from 'node:path'
import {fileURLToPath} from 'node:url'
import {build} from 'esbuild'

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..')
const OUT = join(ROOT, 'dist', 'tapir.cjs')

// In one file every module's import.meta.url would be the bundle's: each keeps its own place in
// dist/ (where background-sim.ts finds the sim, flutter-app.ts the supervisor, ...).
const ownUrl = {
  name: 'own-import-meta-url',
  setup(esbuild) {
    esbuild.onLoad({filter: /[\\/]dist[\\/].*\.js$/}, (args) => {
      const source = readFileSync(args.path, 'utf8')
      if (!source.includes('import.meta')) return undefined
      const place = relative(dirname(OUT), args.path).split('\\').join('/')
      return {contents: source.replaceAll('import.meta.url', `new URL(${JSON.stringify(place)}, __bundleUrl).href`), loader: 'js'}
    })
  },
}

await build({
  absWorkingDir: ROOT,
  entryPoints: ['dist/cli/main.js'],
  outfile: OUT,
  bundle: true,
  platform: 'node',
  format: 'cjs',
  target: 'node20',
  // Large packages few verbs use (perf_run's YAML reader) load from node_modules when first used.
  external: ['yaml', 'diff', 'web-tree-sitter', '@modelcontextprotocol/sdk'],
  banner: {js: "const __bundleUrl = require('node:url').pathToFileURL(__filename).href;"},
  plugins: [ownUrl],
  // import.meta.resolve runs only from the TypeScript sources (FROM_SOURCES), never from dist/.
  logOverride: {'empty-import-meta': 'silent'},
  logLevel: 'warning',
})
