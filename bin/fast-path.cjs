// The fast path of a plain `tapir <command>` run: oclif, the command classes and their modules
// as one prebuilt file (dist/fast/, made by `npm run build`, scripts/build-fast-path.mjs), with
// V8's compiled code for it: one file for the verbs, one for the other commands. Loading ~300
// files one by one was most of tapir's start-up.
// It is used only when every file it was built from is unchanged; anything else (a missing or
// stale build, help, an unknown command) goes the ordinary oclif way, which reads dist/ itself.

// CommonJS, as bin/run.cjs is: no ES module is loaded on the way to the bundle, so a fast-path
// run never sets up Node's ES module loader (about 7 ms). Built-ins come from getBuiltinModule, which hands out
// what Node has already loaded.
const {closeSync, constants, fstatSync, openSync, readSync, statSync} = process.getBuiltinModule('node:fs')
const Module = process.getBuiltinModule('node:module')
const {dirname, join, sep} = process.getBuiltinModule('node:path')
const vm = process.getBuiltinModule('node:vm')
const {createRequire} = Module

const ROOT = join(__dirname, '..')
const FAST_DIR = join(ROOT, 'dist', 'fast')

/** The prebuilt bundles, each with V8's code for it and a stamp of what it was made from. A
 *  catalogue verb (what agents run most) is read and run by `direct`, which holds no oclif (a
 *  third of the bytes); a command line it leaves to oclif, and tapir:run, go to `verbs`, which
 *  holds oclif and what a verb run can reach; every other command to `all`. */
const BUNDLES = {
  direct: bundleFiles('direct'),
  verbs: bundleFiles('verbs'),
  all: bundleFiles('all'),
}

function bundleFiles(kind) {
  const entry = `dist/fast/${kind}.cjs`
  return {
    kind,
    entry,
    bundle: join(ROOT, entry),
    cache: join(FAST_DIR, `${kind}.cjs.cache`),
    stamp: join(FAST_DIR, `${kind}.stamp.json`),
    verified: join(FAST_DIR, `${kind}.verified.json`),
  }
}

/** Which oclif bundle would serve a run of `id` (`direct` is tried before it, bin/run.cjs). */
function bundleFor(id) {
  return id?.startsWith('tapir:') ? BUNDLES.verbs : BUNDLES.all
}

// Bounds on what the fast path reads: the stamp (and the record of what a run verified) are tens
// of KB, the largest file the stamp names ~1 MB.
const MAX_STAMP_BYTES = 4 * 1024 * 1024
const MAX_FILE_BYTES = 64 * 1024 * 1024

/** The bytes of a regular file of at most `maxBytes`; undefined for anything else. The open does
 *  not block, so a FIFO or a device (/dev/zero) is never waited on or read. */
function readRegular(path, maxBytes) {
  let fd
  try {
    fd = openSync(path, constants.O_RDONLY | (constants.O_NONBLOCK ?? 0))
  } catch {
    return undefined
  }
  try {
    const stats = fstatSync(fd)
    const size = stats.size
    if (!stats.isFile() || size > maxBytes) return undefined
    const buffer = Buffer.allocUnsafe(size)
    let read = 0
    while (read < size) {
      const count = readSync(fd, buffer, read, size - read, read)
      if (count === 0) break
      read += count
    }
    return buffer.subarray(0, read)
  } catch {
    return undefined
  } finally {
    closeSync(fd)
  }
}

/** Why the fast path cannot serve `argv`, or undefined when it can. */
function fastPathRefusal(argv, stamp = readStamp(bundleFor(argv[0]))) {
  // For comparing the two paths (npm run bench) or ruling the bundle out when in doubt.
  if (process.env.TAPIR_NO_FAST_PATH) return 'turned off by TAPIR_NO_FAST_PATH'
  if (!stamp) return 'not built'
  if (!stamp.ids.includes(argv[0])) return 'not a tapir command'
  // Help lists the plugins' commands too, and they are not in the bundle.
  if (argv.includes('--help') || argv.includes('-h')) return 'help'
  const changed = stamp.files.find((file) => !unchanged(file, stamp))
  if (changed) return `stale: ${changed[0]} changed since the build`
  return undefined
}

/** The stamp the build wrote for `files` (one of BUNDLES), with which bundle it is, or undefined
 *  when it is missing or not what the build writes. */
function readStamp(files) {
  try {
    const stamp = JSON.parse(readRegular(files.stamp, MAX_STAMP_BYTES)?.toString('utf8') ?? '')
    const valid =
      typeof stamp?.node === 'string' &&
      Array.isArray(stamp.ids) &&
      stamp.ids.every((id) => typeof id === 'string') &&
      Array.isArray(stamp.files) &&
      stamp.files.every(isFileEntry) &&
      stamp.files.some(([path]) => path.split(sep).join('/') === files.entry) &&
      (stamp.cache === undefined || isFileEntry(stamp.cache))
    return valid ? {...stamp, bundleFiles: files, verified: readVerified(files), seen: [], hashed: false} : undefined
  } catch {
    return undefined
  }
}

/** What an earlier run found by hash: each file's `[path, size, mtimeMs, sha1, ctimeMs]` with the
 *  times it had then, by path. An installed package's files have other mtimes than the build's
 *  (npm sets its own), and without this every run would hash every file again. */
function readVerified(files) {
  try {
    const record = JSON.parse(readRegular(files.verified, MAX_STAMP_BYTES)?.toString('utf8') ?? '')
    const valid = (entry) => isFileEntry(entry.slice(0, 4)) && entry.length === 5 && typeof entry[4] === 'number'
    return new Map(
      Array.isArray(record) ? record.filter((entry) => Array.isArray(entry) && valid(entry)).map((entry) => [entry[0], entry]) : [],
    )
  } catch {
    return new Map()
  }
}

/** `[path, size, mtimeMs, sha1]` of a file inside the package, as the build writes it. */
function isFileEntry(entry) {
  if (!Array.isArray(entry) || entry.length !== 4) return false
  const [path, size, mtimeMs, sha1] = entry
  return (
    typeof path === 'string' &&
    path !== '' &&
    Number.isSafeInteger(size) &&
    size >= 0 &&
    typeof mtimeMs === 'number' &&
    typeof sha1 === 'string' &&
    /^[0-9a-f]{40}$/.test(sha1)
  )
}

/** Size, mtime and ctime say "unchanged" cheaply: the ones the build or an earlier run saw when
 *  the file's hash was the build's. An mtime alone would not do: it can be set back after other
 *  bytes of the same size were written (then the bundle or its code cache would run, and a
 *  corrupt cache crashes V8), while a write always gives a new ctime, which no one can set.
 *  Otherwise (an unpacked tarball, a copy) the hash decides, and what it found goes into
 *  `stamp.seen` for recordVerified. */
function unchanged([path, size, , sha1], stamp) {
  const file = ROOT + sep + path
  try {
    const stat = statSync(file, {throwIfNoEntry: false})
    if (!stat?.isFile() || stat.size !== size) return false
    const seen = [path, size, stat.mtimeMs, sha1, stat.ctimeMs]
    const earlier = stamp.verified.get(path)
    if (earlier !== undefined && seen.every((value, at) => earlier[at] === value)) {
      stamp.seen.push(seen)
      return true
    }
    if (hashOf(file) !== sha1) return false
    stamp.seen.push(seen)
    stamp.hashed = true
    return true
  } catch {
    return false // a path no file can have
  }
}

/** A file changed in the last two seconds could change again within the same tick of its
 *  clock, unseen by its times: what a run hashed is recorded once it is older than that. */
const SETTLED_MS = 2000

/** After a run that had to hash files, writes down what it found (through the bundle's own
 *  atomic writer), so the next run trusts their size and mtime as it trusts the build's. A
 *  package folder the user cannot write (a global install by root) just keeps hashing. */
function recordVerified(stamp, writeAtomic) {
  if (!stamp.hashed) return
  const settled = stamp.seen.filter((entry) => Date.now() - Math.max(entry[2], entry[4]) > SETTLED_MS)
  if (settled.length === 0) return
  try {
    writeAtomic(stamp.bundleFiles.verified, JSON.stringify(settled), {refuseLinks: true})
  } catch {
    // not writable: the next run hashes again
  }
}

// crypto loads only when a hash is needed (ws loads it later anyway, for a connected verb).
function hashOf(file) {
  const bytes = readRegular(file, MAX_FILE_BYTES)
  return bytes && process.getBuiltinModule('node:crypto').createHash('sha1').update(bytes).digest('hex')
}

/** Loads the bundle through V8's code cache when the cache was made by this very Node;
 *  V8 itself refuses a cache from another V8 or other flags, and then compiles as usual.
 *  With `produceCache`, the compiled code is written there as the process exits. */
function loadBundle({argv, stamp = readStamp(bundleFor(argv[0])), produceCache}) {
  const {bundle: bundleFile} = stamp.bundleFiles
  const cachedData = !produceCache && stamp.node === process.version && stamp.cache ? readCache(stamp) : undefined
  // Through require, so the bundle is a module as any other (NODE_DEBUG=module names it), but
  // compiled here: with the code cache, and from a one-byte string read as Latin-1 (the build
  // keeps the bundle ASCII), which costs Node no UTF-8 decoding of the whole file. The loader of
  // .cjs files is this one only while the bundle is required, whose file (by its real path) is
  // the one .cjs file required then; Node 20 has none of its own, and gets none back.
  const extensions = Module._extensions
  const hadOwn = Object.hasOwn(extensions, '.cjs')
  const loadCjs = extensions['.cjs']
  const restore = () => (hadOwn ? (extensions['.cjs'] = loadCjs) : delete extensions['.cjs'])
  extensions['.cjs'] = function (module, filename) {
    restore()
    const source = readRegular(filename, MAX_FILE_BYTES)
    if (!source) throw new Error(`${filename} is not a file the fast path can read`)
    // The bundle has no import() (see scripts/build-fast-path.mjs): it needs no dynamic-import callback.
    const script = new vm.Script(Module.wrap(source.toString('latin1')), {filename, cachedData})
    if (produceCache) process.once('exit', () => produceCache(script.createCachedData()))
    const wrapper = script.runInThisContext()
    wrapper.call(module.exports, module.exports, createRequire(filename), module, filename, dirname(filename))
  }
  let bundle
  try {
    bundle = require(bundleFile)
  } finally {
    restore()
  }
  const direct = stamp.bundleFiles === BUNDLES.direct
  const complete = direct
    ? typeof bundle?.runVerbDirectly === 'function'
    : typeof bundle?.execute === 'function' && bundle.COMMANDS && bundle.REACHABLE
  if (!complete || typeof bundle.writeAtomic !== 'function') throw new Error(`${bundleFile} is not the bundle the build makes`)
  if (!direct) Object.assign(bundle.REACHABLE, reachable(bundle.COMMANDS, argv[0]))
  return bundle
}

/** Commands that run other commands in this process: tapir:run and test dispatch their steps to
 *  any verb, restart runs stop then start (mcp:serve never takes the fast path). */
const DISPATCHES = {restart: ['restart', 'stop', 'start']}

/** The commands a run of `id` can reach. oclif sorts and caches all it is shown, and its sort
 *  alone costs 6 ms (the first localeCompare builds an ICU collator), so it is shown only these. */
function reachable(commands, id) {
  if (id === 'tapir:run' || id === 'test') return commands
  return Object.fromEntries((DISPATCHES[id] ?? [id]).map((name) => [name, commands[name]]))
}

function readCache(stamp) {
  return unchanged(stamp.cache, stamp) ? readRegular(join(ROOT, stamp.cache[0]), MAX_FILE_BYTES) : undefined
}

/** What oclif loads its configuration from on the fast path. Unless DEBUG is set, oclif's logger
 *  is one that prints nothing, which is what its own, the `debug` package, prints then; that
 *  package then never loads (its loading reads the environment, the terminal and stderr). */
function fastLoadOptions(stamp) {
  const options = {root: ROOT, pjson: fastPjson(stamp)}
  return process.env.DEBUG ? options : {...options, logger: silentLogger()}
}

function silentLogger() {
  const ignore = () => {}
  const logger = {namespace: 'oclif', debug: ignore, error: ignore, info: ignore, trace: ignore, warn: ignore, child: () => logger}
  return logger
}

/** The package.json oclif reads, pointed at the commands of the bundle `stamp` is for. Plugins add
 *  only their own commands (help, autocomplete), which never run here. Throws when it has no
 *  oclif block. */
function fastPjson(stamp) {
  const pjson = JSON.parse(readRegular(join(ROOT, 'package.json'), MAX_STAMP_BYTES)?.toString('utf8') ?? '')
  if (typeof pjson?.oclif?.commands !== 'object' || pjson.oclif.commands === null) throw new Error('package.json has no oclif commands')
  pjson.oclif.commands = {...pjson.oclif.commands, target: `./${stamp.bundleFiles.entry}`, identifier: 'REACHABLE'}
  pjson.oclif.plugins = []
  return pjson
}

module.exports = {
  ROOT,
  FAST_DIR,
  BUNDLES,
  bundleFor,
  fastPathRefusal,
  readStamp,
  hashOf,
  loadBundle,
  recordVerified,
  fastLoadOptions,
  fastPjson,
}
