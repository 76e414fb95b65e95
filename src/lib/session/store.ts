import {unlinkSync} from 'node:fs'
import {dirname} from 'node:path'
import {TapirError, errorCode, type Words} from '../errors.js'
import {nestsDeeperThan} from '../json-depth.js'
import {jsonKind} from '../json-kind.js'
import {isJsonObject, ShapeMismatch} from '../shape.js'
import {ensureFolder, fileError, writeAtomic} from '../write-atomic.js'
import type {SessionLocation} from './location.js'
import {sessionShape, type Session} from './session.js'
import {checkSessionFolder, readTrustedFile} from './trust.js'

/** A session holds a few flat records: anything nested deeper is not one (and would overflow
 *  whatever prints it). */
const MAX_SESSION_DEPTH = 16

/** The session the text holds, or why it holds none. The reason names the field and the kind
 *  of its value, never the value: --state may name any file. */
function asSession(text: string): Session | string {
  let value: unknown
  try {
    value = JSON.parse(text)
  } catch {
    return 'it is not JSON'
  }
  if (nestsDeeperThan(value, MAX_SESSION_DEPTH)) return `it nests deeper than ${MAX_SESSION_DEPTH} levels`
  if (!isJsonObject(value)) return 'it is not a JSON object'
  try {
    return sessionShape.read(value, '')
  } catch (error) {
    if (!(error instanceof ShapeMismatch)) throw error
    return `its ${error.path} is ${jsonKind(error.found)}, not ${error.expected}`
  }
}

export class NotASessionError extends TapirError {
  constructor(location: SessionLocation, why?: string) {
    const fix = (words: Words) =>
      location.named
        ? `Check ${words.only('--state', "the MCP server's state option")} / TAPIR_STATE_FILE: it must name a session file tapir wrote.`
        : 'Remove it with `tapir stop`, then start or attach again.'
    const what = why === undefined ? '(a JSON object with vmServiceUri)' : `(${why})`
    super((words) => `${location.path} is not a tapir session file ${what}. ${fix(words)}`, 'local')
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
  // The plain reasons (not JSON, no vmServiceUri) keep the message a user of the Dart tooling knows.
  if (typeof session === 'string')
    throw new NotASessionError(location, /^it is not (JSON|a JSON object)$|vmServiceUri/.test(session) ? undefined : session)
  return session
}

/** A fallback is not this project's to repair: unreadable, untrusted or not a session, it is skipped. */
function readFallback(path: string): Session | undefined {
  try {
    const text = readTrustedFile(path)
    const session = text === undefined ? undefined : asSession(text)
    return typeof session === 'string' ? undefined : session
  } catch {
    return undefined
  }
}

/** The session a verb drives: the project's own file, else the shared pointer, else the Dart
 *  tooling's files (dowel, artisan), so an app started by either is found. */
export function readSession(location: SessionLocation): Session | undefined {
  const own = readOwnSession(location)
  if (own || location.named) return own
  for (const path of [...(location.pointer ? [location.pointer] : []), ...location.fallbacks]) {
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
  // find's handles on an app with no package (src/lib/zero/handles.ts): a new session starts
  // with none, so a qN of this one never names a node of the next app.
  remove(`${location.path}.handles.json`)
  remove(`${location.path}.handles.json.lock`)
  // A zero-install perf session (src/lib/zero/perf.ts) ends with the app it measured.
  remove(`${location.path}.perf`)
  remove(`${location.path}.perf.lock`)
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
