#!/usr/bin/env node
// The tapir executable. CommonJS, as fast-path.cjs is (see there); built-ins by getBuiltinModule.
const nodeModule = process.getBuiltinModule('node:module')
const os = process.getBuiltinModule('node:os')

// Node 22.1+ keeps compiled code between runs; start-up is what agents feel on every verb.
nodeModule.enableCompileCache?.()

// With HOME unset and no passwd entry (a container run with --user N), os.homedir() and
// os.userInfo() throw, and oclif (and clean-stack, as it loads) call them. They get an empty
// answer instead (oclif then uses its own fallback for folders tapir does not use); tapir finds
// the home folder itself and says plainly when there is none (src/lib/session/location.ts).
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

const argv = process.argv.slice(2)
const fast = require('./fast-path.cjs')

/** The bundle that reads and runs a catalogue verb without oclif, when it may serve this run.
 *  Not with DEBUG set: the lines DEBUG asks for are oclif's. A command line it leaves to oclif
 *  then loads oclif's bundle too, which costs such a run (most often a mistyped one) ~20 ms. */
function directBundle() {
  if (!argv[0]?.startsWith('tapir:') || process.env.DEBUG) return undefined
  const stamp = fast.readStamp(fast.BUNDLES.direct)
  if (fast.fastPathRefusal(argv, stamp) !== undefined) return undefined
  try {
    const bundle = fast.loadBundle({argv, stamp})
    fast.recordVerified(stamp, bundle.writeAtomic)
    return bundle
  } catch {
    return undefined // what is not what the build made: oclif's way below
  }
}

/** oclif reads and runs the command: from a bundle when it may serve, else from dist/. */
function runWithOclif() {
  // As the direct path does (src/lib/output/print.ts): a reader that stops early is no error, and
  // any other failure to write (a full disk) one line and exit 1, not Node's dump of the bundle.
  // Taken before any listener: oclif's command module adds one that rethrows all but EPIPE.
  let reported = false
  const emit = process.stdout.emit
  process.stdout.emit = function (event, error, ...rest) {
    if (event !== 'error') return emit.call(this, event, error, ...rest)
    if (error?.code !== 'EPIPE' && !reported) {
      reported = true
      process.exitCode = 1
      process.stderr.write(`✗ Cannot write the output: ${String(error?.message).replace(/[^\x20-\x7e]/g, '?')}\n`)
    }
    return true
  }
  const stamp = fast.readStamp(fast.bundleFor(argv[0]))
  let served
  if (fast.fastPathRefusal(argv, stamp) === undefined) {
    try {
      const loadOptions = fast.fastLoadOptions(stamp)
      served = {bundle: fast.loadBundle({argv, stamp}), loadOptions}
      fast.recordVerified(stamp, served.bundle.writeAtomic)
    } catch {
      // A bundle or package.json that is not what the build made: the ordinary path reads dist/ itself.
    }
  }
  if (served) {
    void served.bundle.execute({args: argv, loadOptions: served.loadOptions})
  } else {
    // The subpath skips @oclif/core's index, which checks the Node version with semver on every start.
    void require('@oclif/core/execute').execute({dir: __filename})
  }
}

const direct = directBundle()
if (direct) {
  // It resolves to false, having done nothing, for a command line it leaves to oclif.
  direct.runVerbDirectly(argv).then(
    (handled) => handled || runWithOclif(),
    () => {
      // runVerbDirectly prints its own failures; this is for one it could not print.
      process.exitCode = 1
      process.stderr.write(
        '✗ tapir failed unexpectedly, maybe after acting on the app; TAPIR_NO_FAST_PATH=1 shows the full error of a run (it runs the command again).\n',
      )
    },
  )
} else {
  runWithOclif()
}
