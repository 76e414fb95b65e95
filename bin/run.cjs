#!/usr/bin/env node
// The tapir executable. Every command line runs from a bundle, one file that holds no oclif
// (scripts/bundle.mjs): a verb (`tapir tapir:snap`, what agents and scripts run most) and the
// commands run as often (`tapir status`, `tapir tapir:run ...`) from dist/quick.cjs, any other
// command from dist/tapir.cjs. oclif, from dist/, prints help, the command list and the completion
// script, and names the nearest command to an unknown one. CommonJS, so no ES module loader starts
// on the way.

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
if (oclifOwn) {
  runWithOclif()
} else {
  runFromBundles(argv).then(
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
}

/** Runs the line from the quick bundle, else from the whole one; false when neither took it (help,
 *  an unknown command) or neither loads (a dist/ built by tsc alone has none): oclif then runs the
 *  line from dist/, through the same reader. A bundle's runLine that resolves to false did
 *  nothing, so the next may run the line. */
async function runFromBundles(argv) {
  for (const name of ['quick.cjs', 'tapir.cjs']) {
    const bundle = lineBundle(name)
    if (bundle && (await bundle.runLine(argv))) return true
  }
  return false
}

function lineBundle(name) {
  try {
    // Only a regular file: reading a FIFO put there would wait for ever.
    const path = require.resolve(`../dist/${name}`)
    if (!process.getBuiltinModule('node:fs').statSync(path).isFile()) return undefined
    const bundle = loadBundle(path)
    return typeof bundle?.runLine === 'function' ? bundle : undefined
  } catch {
    return undefined
  }
}

/** Node 22.1+ keeps a bundle's compiled code between runs itself (enableCompileCache, above). Node
 *  20 has no such cache and compiles the bundle at every start, near a tenth of a verb's time:
 *  there tapir keeps V8's code for it in a folder of its own and hands it back to V8, which
 *  checks it against the source and Node, and compiles afresh when it does not fit. */
function loadBundle(path) {
  const Module = process.getBuiltinModule('node:module')
  if (Module.enableCompileCache) return require(path)
  const fs = process.getBuiltinModule('node:fs')
  const {basename, dirname, join} = process.getBuiltinModule('node:path')
  const vm = process.getBuiltinModule('node:vm')
  const stat = fs.statSync(path, {bigint: true})
  const folder = ownCacheFolder()
  // One file a bundle of each install (npx's beside a global one), named for what it was made from.
  // V8 checks a cache against its source's length alone, and npm gives every file it installs one
  // fixed modification time: the change time, which any write or new copy sets, tells two apart.
  const install = process.getBuiltinModule('node:crypto').createHash('sha256').update(path).digest('hex').slice(0, 12)
  const name = `${basename(path)}-${install}-${stat.size}-${stat.ctimeNs}-${process.version}.v8`
  const cachedData = folder && ownFile(join(folder, name))
  // Node's module log (NODE_DEBUG=module) names the bundle as it names a module it loads itself.
  process.getBuiltinModule('node:util').debuglog('module')('load %j for module %j', path, '.')
  const script = new vm.Script(Module.wrap(fs.readFileSync(path, 'utf8')), {filename: path, cachedData})
  const module = {exports: {}}
  script.runInThisContext().call(module.exports, module.exports, Module.createRequire(path), module, path, dirname(path))
  if (folder && (!cachedData || script.cachedDataRejected)) {
    // Made as the process ends, so it holds the code compiled for the line as well.
    process.once('exit', () => {
      const temp = join(folder, `${name}.${process.pid}.tmp`)
      try {
        fs.writeFileSync(temp, script.createCachedData(), {mode: 0o600, flag: 'wx'})
        fs.renameSync(temp, join(folder, name))
        for (const old of fs.readdirSync(folder))
          if (old.startsWith(`${basename(path)}-${install}-`) && old !== name) fs.rmSync(join(folder, old), {force: true})
      } catch {
        fs.rmSync(temp, {force: true})
      }
    })
  }
  return module.exports
}

/** tapir's compile cache folder in the temporary folder: only one this user owns and no one else
 *  may enter, since V8 runs the code it finds there. */
function ownCacheFolder() {
  const fs = process.getBuiltinModule('node:fs')
  const uid = process.getuid?.()
  if (uid === undefined) return undefined
  const folder = process.getBuiltinModule('node:path').join(process.getBuiltinModule('node:os').tmpdir(), `tapir-compile-cache-${uid}`)
  try {
    fs.mkdirSync(folder, {mode: 0o700, recursive: true})
    const stat = fs.lstatSync(folder)
    return stat.isDirectory() && stat.uid === uid && (stat.mode & 0o077) === 0 ? folder : undefined
  } catch {
    return undefined
  }
}

function ownFile(file) {
  const fs = process.getBuiltinModule('node:fs')
  try {
    const stat = fs.lstatSync(file)
    return stat.isFile() && stat.uid === process.getuid() && stat.size < 64 * 1024 * 1024 ? fs.readFileSync(file) : undefined
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
