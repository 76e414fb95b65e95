#!/usr/bin/env node
// The tapir executable. A catalogue verb (`tapir tapir:snap`, what agents and scripts run most)
// runs from dist/tapir.cjs, one file that holds no oclif (scripts/bundle.mjs); every other command,
// and help, runs through oclif from dist/. CommonJS, so no ES module loader starts on the way.

// An older Node would fail below on an API it lacks, with a stack trace: name the Node tapir needs
// (package.json's engines, held by test/contract/node-versions.test.ts). Syntax any Node reads.
var nodeVersion = String(process.versions.node).split('.').map(Number)
if (!(nodeVersion[0] >= 24 || (nodeVersion[0] === 22 && nodeVersion[1] >= 13) || (nodeVersion[0] === 20 && nodeVersion[1] >= 19))) {
  process.stderr.write(
    '✗ tapir needs Node 20.19+, 22.13+ or 24+; this is Node ' + process.versions.node + '. Install one from https://nodejs.org.\n',
  )
  process.exit(1)
}

// Node 22.1+ keeps the compiled code between runs, keyed by the file's contents.
process.getBuiltinModule('node:module').enableCompileCache?.()

const argv = process.argv.slice(2)
// Words after `--` are values, never a request for help.
const flags = argv.includes('--') ? argv.slice(0, argv.indexOf('--')) : argv
const help = flags.includes('--help') || flags.includes('-h')
const bundle = argv[0]?.startsWith('tapir:') && !help ? verbBundle() : undefined
if (bundle) {
  bundle.runVerb(argv).then(
    (ran) => ran || runWithOclif(),
    (error) => {
      // runVerb turns every failure into its printed outcome; this is a fault of tapir's own.
      process.exitCode = 1
      const why = String(error?.message ?? error)
        .slice(0, 500)
        .replace(/[^\x20-\x7e]/g, '?')
      process.stderr.write(`✗ tapir failed unexpectedly, maybe after acting on the app: ${why}\n`)
    },
  )
} else {
  runWithOclif()
}

/** The bundle, or undefined when it cannot load (a dist/ built by tsc alone has none): oclif
 *  then runs the verb from dist/, through the same reader. */
function verbBundle() {
  try {
    // Only a regular file: reading a FIFO put there would wait for ever.
    const path = require.resolve('../dist/tapir.cjs')
    if (!process.getBuiltinModule('node:fs').statSync(path).isFile()) return undefined
    const bundle = require(path)
    return typeof bundle?.runVerb === 'function' ? bundle : undefined
  } catch {
    return undefined
  }
}

function runWithOclif() {
  // oclif reads the command list from package.json beside bin/; without it, it prints a stack of
  // lines and exits 2, a code tapir does not use.
  const {join} = process.getBuiltinModule('node:path')
  const manifest = join(__dirname, '..', 'package.json')
  if (!process.getBuiltinModule('node:fs').statSync(manifest, {throwIfNoEntry: false})?.isFile()) {
    process.stderr.write(`✗ This tapir install is incomplete: ${manifest} is missing. Install tapir again.\n`)
    process.exitCode = 1
    return
  }
  // With HOME unset and no passwd entry (a container run with --user N), os.homedir() and
  // os.userInfo() throw, and oclif calls them as it loads. They answer empty instead; tapir finds
  // the home folder itself and says plainly when there is none (src/lib/session/location.ts).
  const os = process.getBuiltinModule('node:os')
  const {homedir, userInfo} = os
  os.homedir = () => {
    try {
      return homedir()
    } catch {
      return ''
    }
  }
  os.userInfo = (options) => {
    try {
      return userInfo(options)
    } catch {
      return {username: '', uid: process.getuid?.() ?? -1, gid: process.getgid?.() ?? -1, shell: null, homedir: ''}
    }
  }
  // The subpath skips @oclif/core's index, which checks the Node version with semver on every start.
  void require('@oclif/core/execute').execute({dir: __filename})
}
