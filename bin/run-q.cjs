#!/usr/bin/env node
// The tapir executable. Every command line, a verb (`tapir tapir:snap`, what agents and scripts run
// most) or a command (`tapir status`, `tapir tapir:run ...`), runs from dist/tapir.cjs, one file that
// holds no oclif (scripts/bundle.mjs). oclif, from dist/, prints help, the command list and the
// completion script, and names the nearest command to an unknown one. CommonJS, so no ES module
// loader starts on the way.

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

// package.json beside bin/ is part of the install (oclif reads the command list from it, and
// tapir its version); without it, oclif would print a stack of lines and exit 2.
const manifest = process.getBuiltinModule('node:path').join(__dirname, '..', 'package.json')
if (!process.getBuiltinModule('node:fs').statSync(manifest, {throwIfNoEntry: false})?.isFile()) {
  process.stderr.write(`✗ This tapir install is incomplete: ${manifest} is missing. Install tapir again.\n`)
  process.exit(1)
}

const argv = process.argv.slice(2)
// oclif's own lines: no command (the list), `help`, a first word that is a flag (--help,
// --version), and completion (autocomplete). Whether `--help` or `-h` later in a line asks for help (and not,
// say, for "-h" as --text's value) the one reader tells: the bundle then leaves the line to oclif.
const first = argv[0]
const oclifOwn = first === undefined || first === 'help' || first.startsWith('-') || first === 'autocomplete'
const bundle = oclifOwn ? undefined : lineBundle()
if (bundle) {
  bundle.runLine(argv).then(
    (ran) => ran || runWithOclif(),
    (error) => {
      // runLine turns every failure into its printed outcome; this is a fault of tapir's own.
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
 *  then runs the line from dist/, through the same reader. */
function lineBundle() {
  try {
    // Only a regular file: reading a FIFO put there would wait for ever.
    const path = require.resolve('../dist/quick.cjs')
    if (!process.getBuiltinModule('node:fs').statSync(path).isFile()) return undefined
    const bundle = require(path)
    return typeof bundle?.runLine === 'function' ? bundle : undefined
  } catch {
    return undefined
  }
}

function runWithOclif() {
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
