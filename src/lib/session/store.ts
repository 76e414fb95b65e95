import {unlinkSync} from 'node:fs'
import {dirname} from 'node:path'
import {TapirError, errorCode} from '../errors.js'
import {nullable, object, readAs, string} from '../shape.js'
import {ensureFolder, fileError, writeAtomic} from '../write-atomic.js'
import type {SessionLocation} from './location.js'
import type {Session} from './session.js'
import {checkSessionFolder, readTrustedFile} from './trust.js'

const sessionShape = object({vmServiceUri: nullable(string)})

/** What makes a file a session: a JSON object with a `vmServiceUri` (a string, or null while
 *  booting), as tapir and the Dart tooling write it. */
function asSession(text: string): Session | undefined {
  let value: unknown
  try {
    value = JSON.parse(text)
  } catch {
    return undefined // not JSON
  }
  const read = readAs(sessionShape, value)
  return 'value' in read ? read.value : undefined
}

export class NotASessionError extends TapirError {
  constructor(location: SessionLocation) {
    const fix = location.named
      ? 'Check --state / TAPIR_STATE_FILE: it must name a session file tapir wrote.'
      : 'Remove it with `tapir stop`, then start or attach again.'
    super(`${location.path} is not a tapir session file (a JSON object with vmServiceUri). ${fix}`, 'local')
  }
}

/** Refuses a session whose folders are not the user's own and private. */
export function checkFolders(location: SessionLocation): void {
  for (const folder of location.folders) checkSessionFolder(folder, {shared: location.named})
}

/** This project's own session file (or the one named by --state / TAPIR_STATE_FILE): the only
 *  one tapir starts, attaches over or stops. Refused when it is not the user's own or not a session. */
export function readOwnSession(location: SessionLocation): Session | undefined {
  checkFolders(location)
  const text = readTrustedFile(location.path)
  if (text === undefined) return undefined
  const session = asSession(text)
  if (!session) throw new NotASessionError(location)
  return session
}

/** A fallback is not this project's to repair: unreadable, untrusted or not a session, it is skipped. */
function readFallback(path: string): Session | undefined {
  try {
    const text = readTrustedFile(path)
    return text === undefined ? undefined : asSession(text)
  } catch {
    return undefined
  }
}

/** The session a verb drives: the project's own file, else the shared pointer, else the Dart
 *  tooling's files (dowel, artisan), so an app started by either is found. */
export function readSession(location: SessionLocation): Session | undefined {
  const own = readOwnSession(location)
  if (own || location.named) return own
  for (const path of [location.pointer!, ...location.fallbacks]) {
    const session = readFallback(path)
    if (session) return session
  }
  return undefined
}

/** Readable by the owner only: the VM Service URI holds an auth token. */
export function writeSession(location: SessionLocation, session: Session): void {
  ensureFolder(dirname(location.path), 0o700)
  checkFolders(location)
  const text = JSON.stringify(session, null, 2) + '\n'
  writeAtomic(location.path, text, {mode: 0o600, private: true})
  if (location.pointer) writeAtomic(location.pointer, text, {mode: 0o600, private: true})
}

function remove(path: string): void {
  try {
    unlinkSync(path)
  } catch (error) {
    if (errorCode(error) !== 'ENOENT') throw fileError('remove', path, error)
  }
}

/** Removes the session file (read and checked by the caller) and the shared pointer when it names
 *  the same project. unlink removes a name, never what a link points to. */
export function deleteSession(location: SessionLocation, session: Session | undefined): void {
  remove(location.path)
  if (!location.pointer) return
  const pointer = readFallback(location.pointer)
  if (pointer?.projectRoot && pointer.projectRoot === session?.projectRoot) remove(location.pointer)
}

/** A file in tapir's own per-project folder that is not a session (a crash, a hand edit) may go;
 *  a file the user named is never removed unless it is a session. */
export function removeUnreadableSession(location: SessionLocation): void {
  if (location.named) throw new NotASessionError(location)
  checkFolders(location)
  remove(location.path)
}
