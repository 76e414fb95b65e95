import {closeSync, constants, fstatSync, openSync, readFileSync, statSync} from 'node:fs'
import type {Stats} from 'node:fs'
import {TapirError, errorCode} from '../errors.js'
import {fileError} from '../write-atomic.js'

/** A session (or its lock) is a few hundred bytes; far more is not one of tapir's. */
const MAX_SESSION_FILE_BYTES = 1024 * 1024

const octal = (mode: number) => (mode & 0o7777).toString(8).padStart(4, '0')

/** Why this user should not trust a file or folder with these stats; undefined when it is theirs
 *  and nobody else can write it. A sticky folder (like /tmp) lets nobody replace another's file. */
function distrust(stats: Stats, options: {rootMayOwn?: boolean; stickyWriters?: boolean} = {}): string | undefined {
  const me = process.getuid?.()
  if (me === undefined) return undefined // Windows: no owner bits to go by
  if (stats.uid !== me && !(options.rootMayOwn && stats.uid === 0)) return `it belongs to uid ${stats.uid}, not to you (uid ${me})`
  if ((stats.mode & 0o022) !== 0 && !(options.stickyWriters && (stats.mode & 0o1000) !== 0))
    return `group or others can write it (mode ${octal(stats.mode)})`
  return undefined
}

/** Refuses a folder holding session files that is not the user's own, or that others can write
 *  (they could swap the session, or plant names tapir then writes through). `shared` is for the
 *  folder of a --state file: a root-owned sticky folder such as /tmp is then fine. */
export function checkSessionFolder(dir: string, options: {shared?: boolean} = {}): void {
  let stats: Stats
  try {
    stats = statSync(dir)
  } catch (error) {
    if (errorCode(error) === 'ENOENT') return
    throw fileError('read the sessions folder', dir, error)
  }
  const why = distrust(stats, {rootMayOwn: options.shared, stickyWriters: options.shared})
  if (why)
    throw new TapirError(
      (words) =>
        `Refusing the sessions folder ${dir}: ${why}. Make it yours and private (chmod go-w), or ${words.only('pass --state=<file>', 'name a session file (TAPIR_STATE_FILE)')} in a folder of your own.`,
      'local',
    )
}

/** The text of a session file the user owns and only they can write; undefined when there is
 *  none. Opened without following links and checked on the open descriptor, so what is checked
 *  is what is read. */
export function readTrustedFile(path: string): string | undefined {
  let fd: number
  try {
    // Not blocking: a FIFO planted there would hold the open until something writes to it.
    fd = openSync(path, constants.O_RDONLY | (constants.O_NOFOLLOW ?? 0) | (constants.O_NONBLOCK ?? 0))
  } catch (error) {
    const code = errorCode(error)
    if (code === 'ENOENT') return undefined
    if (code === 'ELOOP')
      throw new TapirError(
        `Refusing the session file ${path}: it is a symbolic link. tapir reads and writes its session files only in place.`,
        'local',
      )
    throw fileError('read the session file', path, error)
  }
  try {
    const stats = fstatSync(fd)
    if (!stats.isFile()) throw new TapirError(`Refusing the session file ${path}: it is not a regular file.`, 'local')
    const why = distrust(stats)
    if (why)
      throw new TapirError(
        `Refusing the session file ${path}: ${why}. Remove it if you did not write it, or make it yours and private (chmod 600).`,
        'local',
      )
    if (stats.size > MAX_SESSION_FILE_BYTES)
      throw new TapirError(`Refusing the session file ${path}: it is ${stats.size} bytes, more than any session holds. Remove it.`, 'local')
    return readFileSync(fd, 'utf8')
  } finally {
    closeSync(fd)
  }
}
