import {randomBytes} from 'node:crypto'
import {
  closeSync,
  constants,
  fchmodSync,
  fchownSync,
  fstatSync,
  fsyncSync,
  linkSync,
  lstatSync,
  mkdirSync,
  openSync,
  readSync,
  realpathSync,
  renameSync,
  statSync,
  unlinkSync,
  writeSync,
} from 'node:fs'
import type {Stats} from 'node:fs'
import {basename, dirname, join, resolve} from 'node:path'
import {TapirError, errorCode} from './errors.js'

const REASONS: Record<string, string> = {
  EACCES: 'permission denied',
  EPERM: 'operation not permitted',
  EROFS: 'the file system is read-only',
  ENOSPC: 'no space left on the device',
  EDQUOT: 'disk quota exceeded',
  ENOTDIR: 'a part of the path is not a folder',
  EISDIR: 'it is a folder',
  ENOENT: 'a part of the path does not exist',
  ELOOP: 'too many symbolic links',
  ENAMETOOLONG: 'the name is too long',
  EEXIST: 'it already exists',
  EXDEV: 'it is on another file system than its folder',
}

/** A file system failure on a path the user named, as a one-line local failure (exit 1). */
export function fileError(action: string, path: string, error: unknown): TapirError {
  if (error instanceof TapirError) return error
  const code = errorCode(error) ?? ''
  const reason = REASONS[code] ?? (error instanceof Error ? error.message : String(error))
  return new TapirError(`Cannot ${action} ${path}: ${reason}${code && REASONS[code] ? ` (${code})` : ''}.`, 'local')
}

function lstatOrUndefined(path: string): Stats | undefined {
  try {
    return lstatSync(path)
  } catch (error) {
    if (errorCode(error) === 'ENOENT') return undefined
    throw error
  }
}

/** `mkdir -p` one level at a time: stops at the first part that is missing and cannot be made
 *  (Node's recursive mkdir loops forever under /proc), and refuses a part that is not a folder. */
export function ensureFolder(path: string, mode = 0o755): void {
  const missing: string[] = []
  let dir = resolve(path)
  for (;;) {
    let stats: Stats | undefined
    try {
      stats = statSync(dir)
    } catch (error) {
      if (errorCode(error) !== 'ENOENT') throw fileError('create the folder', path, error)
    }
    if (stats) {
      if (!stats.isDirectory()) throw new TapirError(`Cannot create the folder ${path}: ${dir} is not a folder.`, 'local')
      break
    }
    missing.unshift(dir)
    if (dirname(dir) === dir) break
    dir = dirname(dir)
  }
  for (const folder of missing) {
    try {
      mkdirSync(folder, {mode})
    } catch (error) {
      const code = errorCode(error)
      if (code === 'EEXIST' && statSync(folder).isDirectory()) continue
      throw fileError('create the folder', folder, error)
    }
  }
}

function keepOwner(fd: number, existing: Stats): void {
  if (existing.uid === process.getuid?.() && existing.gid === process.getgid?.()) return
  try {
    fchownSync(fd, existing.uid, existing.gid)
  } catch {
    // only root may give a file away; the file then belongs to whoever wrote it
  }
}

export interface WriteOptions {
  /** Mode of a new file; an existing file keeps its own unless `private`. */
  mode?: number
  /** Mode of folders that have to be created. */
  dirMode?: number
  /** tapir's own file (a session): never written through a symbolic link, always `mode`. */
  private?: boolean
  /** Refuse a symbolic link at `path` rather than write through it (an output file). */
  refuseLinks?: boolean
  /** The bytes the file must still hold at the moment it is replaced, or null when it must still
   *  be missing: a user's file tapir edits. Otherwise the write fails with FileChangedError. */
  unchanged?: Uint8Array | null
}

/** A file that no longer holds what tapir read from it: someone else wrote it meanwhile. */
export class FileChangedError extends TapirError {
  constructor(readonly path: string) {
    super(`${path} changed while tapir worked. Nothing was written.`, 'local')
  }
}

/** Whether the open file holds exactly `expected`, read from its start. */
function holds(fd: number, expected: Uint8Array): boolean {
  if (fstatSync(fd).size !== expected.length) return false
  const buffer = Buffer.alloc(expected.length + 1)
  let read = 0
  for (let count = -1; count !== 0 && read < buffer.length; read += count) count = readSync(fd, buffer, read, buffer.length - read, read)
  return read === expected.length && buffer.subarray(0, read).equals(expected)
}

/** Puts `tmp` in place of `target` only if `target` still holds `expected`. POSIX has no
 *  compare-and-rename, so the file is first moved aside (a rename takes whatever is there at that
 *  instant, an editor's save included), checked there, and `tmp` linked in as `target`, which
 *  never replaces a file someone created meanwhile. The old file is checked again after: an edit
 *  written into it in between is put back and the write refused. For those microseconds the
 *  name is missing; if tapir is killed then, the old file stays under its `.old` name. */
function replaceIfUnchanged(tmp: string, target: string, expected: Uint8Array, written: Uint8Array): void {
  const aside = tmp.replace(/\.tmp$/, '.old')
  try {
    renameSync(target, aside)
  } catch (error) {
    if (errorCode(error) === 'ENOENT') throw new FileChangedError(target)
    throw error
  }
  const fd = openSync(aside, constants.O_RDONLY | (constants.O_NONBLOCK ?? 0) | (constants.O_NOFOLLOW ?? 0))
  try {
    if (!fstatSync(fd).isFile() || !holds(fd, expected)) {
      putInPlace(aside, target)
      throw new FileChangedError(target)
    }
    putInPlace(tmp, target)
    if (holds(fd, expected)) {
      unlinkSync(aside)
      return
    }
    const theirs = readWhole(fd)
    try {
      writeAtomic(target, theirs, {unchanged: written})
      unlinkSync(aside)
    } catch {
      // the file changed again since: the newest edit stays, and the one before under its .old name
    }
    throw new FileChangedError(target)
  } finally {
    closeSync(fd)
  }
}

/** Gives `from` the name `to` unless something took that name meanwhile (then it throws
 *  FileChangedError, and `from` stays where it is). */
function putInPlace(from: string, to: string): void {
  try {
    linkSync(from, to)
  } catch (error) {
    const code = errorCode(error)
    if (code === 'EEXIST') throw new FileChangedError(to)
    if (code !== 'EPERM' && code !== 'ENOTSUP' && code !== 'EOPNOTSUPP') throw error
    // a file system without hard links: a rename, which would replace what appeared meanwhile
    if (lstatOrUndefined(to) !== undefined) throw new FileChangedError(to)
    renameSync(from, to)
    return
  }
  unlinkSync(from)
}

function readWhole(fd: number): Buffer {
  const bytes = Buffer.alloc(fstatSync(fd).size)
  for (let read = 0, count = -1; count !== 0 && read < bytes.length; read += count)
    count = readSync(fd, bytes, read, bytes.length - read, read)
  return bytes
}

/** Writes a file whole or not at all, and never through a name someone else planted: the data
 *  goes to a temp file with a random name, created exclusively without following links, its mode
 *  set on the open descriptor, synced, then renamed over the target. A user's existing file keeps
 *  its mode and owner, and a symbolic link to it is written through to its target. */
export function writeAtomic(path: string, data: string | Uint8Array, options: WriteOptions = {}): void {
  const {mode = 0o644, dirMode = 0o755} = options
  ensureFolder(dirname(path), dirMode)
  let target = path
  let existing: Stats | undefined
  try {
    existing = lstatOrUndefined(path)
    if (existing?.isSymbolicLink()) {
      if (options.private || options.refuseLinks)
        throw new TapirError(
          `Refusing to write ${path}: it is a symbolic link, and tapir does not write through links it did not make. Name the file itself, or another path.`,
          'local',
        )
      target = realpathSync(path)
      existing = statSync(target)
    }
  } catch (error) {
    throw fileError('write', path, error)
  }
  if (existing?.isDirectory()) throw new TapirError(`Cannot write ${path}: it is a folder. Name a file instead.`, 'local')
  if (existing && !existing.isFile()) throw new TapirError(`Cannot write ${path}: it is not a regular file.`, 'local')
  const tmp = join(dirname(target), `.${basename(target)}.${randomBytes(8).toString('hex')}.tmp`)
  const bytes = typeof data === 'string' ? Buffer.from(data, 'utf8') : data
  let fd: number | undefined
  try {
    if (options.unchanged !== undefined && (existing === undefined) !== (options.unchanged === null)) throw new FileChangedError(path)
    fd = openSync(tmp, constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | constants.O_NOFOLLOW, 0o600)
    fchmodSync(fd, existing && !options.private ? existing.mode & 0o7777 : mode)
    if (existing && !options.private) keepOwner(fd, existing)
    for (let written = 0; written < bytes.length;) written += writeSync(fd, bytes, written, bytes.length - written)
    fsyncSync(fd)
    closeSync(fd)
    fd = undefined
    if (options.unchanged === undefined) renameSync(tmp, target)
    else if (options.unchanged === null) putInPlace(tmp, target)
    else replaceIfUnchanged(tmp, target, options.unchanged, bytes)
  } catch (error) {
    if (fd !== undefined) closeSync(fd)
    try {
      unlinkSync(tmp)
    } catch {
      // never created, or already renamed
    }
    throw fileError('write', path, error)
  }
}

/** Adds `data` at the end of an existing regular file in one write, never through a symbolic
 *  link, and answers the file's size after it. A file other processes also append to (a
 *  session's trace) gets each addition whole: O_APPEND puts every write at the end. */
export function appendWhole(path: string, data: string): number {
  let fd: number | undefined
  try {
    fd = openSync(path, constants.O_WRONLY | constants.O_APPEND | (constants.O_NOFOLLOW ?? 0) | (constants.O_NONBLOCK ?? 0))
    if (!fstatSync(fd).isFile()) throw Object.assign(new Error('not a regular file'), {code: 'ENOTREG'})
    const bytes = Buffer.from(data, 'utf8')
    for (let written = 0; written < bytes.length;) written += writeSync(fd, bytes, written, bytes.length - written)
    return fstatSync(fd).size
  } catch (error) {
    throw fileError('append to', path, error)
  } finally {
    if (fd !== undefined) closeSync(fd)
  }
}

/** A fresh, owner-only log: any old file or planted link under its name is removed, not followed. */
export function openFreshLog(path: string): number {
  try {
    unlinkSync(path)
  } catch {
    // not there
  }
  try {
    return openSync(path, constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | (constants.O_NOFOLLOW ?? 0), 0o600)
  } catch (error) {
    throw fileError('create the log', path, error)
  }
}
