import {readFileSync, rmSync} from 'node:fs'
import {TapirError} from '../errors.js'
import {EXIT} from '../output/exit-codes.js'
import {writeAtomic} from '../write-atomic.js'
import type {SessionLocation} from './location.js'
import type {Session} from './session.js'

/** The file's session; undefined when it is missing, or unreadable and `tolerant`. */
function readJson(path: string, tolerant: boolean): Session | undefined {
  let text: string
  try {
    text = readFileSync(path, 'utf8')
  } catch {
    return undefined
  }
  try {
    const value = JSON.parse(text)
    if (value && typeof value === 'object' && !Array.isArray(value)) return value as Session
  } catch {
    // reported below
  }
  if (tolerant) return undefined
  throw new TapirError(`The session file ${path} is not a JSON object. Remove it with \`tapir stop\`, then start or attach again.`, EXIT.failed)
}

/** This project's own session file (or the one named by --state / TAPIR_STATE_FILE): the only
 *  one tapir starts, attaches over or stops. */
export function readOwnSession(location: SessionLocation): Session | undefined {
  return readJson(location.path, false)
}

/** The session a verb drives: the project's own file, else the shared pointer, else the Dart
 *  tooling's files (dowel, artisan), so an app started by either is found. An unreadable
 *  fallback is skipped: it is not this project's to repair. */
export function readSession(location: SessionLocation): Session | undefined {
  const own = readOwnSession(location)
  if (own || location.named) return own
  for (const path of [location.pointer, ...location.fallbacks]) {
    const session = readJson(path, true)
    if (session) return session
  }
  return undefined
}

/** Readable by the owner only: the VM Service URI holds an auth token. */
export function writeSession(location: SessionLocation, session: Session): void {
  const text = JSON.stringify(session, null, 2) + '\n'
  writeAtomic(location.path, text, {mode: 0o600, dirMode: 0o700})
  if (!location.named) writeAtomic(location.pointer, text, {mode: 0o600, dirMode: 0o700})
}

export function deleteSession(location: SessionLocation, session: Session | undefined): void {
  rmSync(location.path, {force: true})
  if (location.named) return
  const pointer = readJson(location.pointer, true)
  if (pointer?.projectRoot && pointer.projectRoot === session?.projectRoot) rmSync(location.pointer, {force: true})
}
