import {chmodSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync} from 'node:fs'
import {dirname} from 'node:path'
import {TapirError} from '../errors.js'
import type {SessionLocation} from './location.js'
import type {Session} from './session.js'

function readJson(path: string): Session | undefined {
  let text: string
  try {
    text = readFileSync(path, 'utf8')
  } catch {
    return undefined
  }
  try {
    const value = JSON.parse(text)
    return value && typeof value === 'object' ? (value as Session) : undefined
  } catch {
    throw new TapirError(`The session file ${path} is not valid JSON. Remove it with \`tapir stop\`, then start or attach again.`, 1)
  }
}

/** The recorded session: the named or per-project file, then the shared pointer, then the
 *  Dart tooling's files (dowel, artisan), so an app started by either is found. */
export function readSession(location: SessionLocation): Session | undefined {
  const candidates = location.named ? [location.path] : [location.path, location.pointer, ...location.fallbacks]
  for (const path of candidates) {
    const session = readJson(path)
    if (session) return session
  }
  return undefined
}

/** Writes atomically (temp file + rename), readable by the owner only: the URI holds a token. */
export function writeSession(location: SessionLocation, session: Session): void {
  writeAtomic(location.path, JSON.stringify(session, null, 2) + '\n')
  if (!location.named) writeAtomic(location.pointer, JSON.stringify(session, null, 2) + '\n')
}

export function deleteSession(location: SessionLocation, session: Session | undefined): void {
  rmSync(location.path, {force: true})
  if (location.named) return
  const pointer = readJson(location.pointer)
  if (pointer && pointer.projectRoot && session?.projectRoot && pointer.projectRoot === session.projectRoot) rmSync(location.pointer, {force: true})
}

/** Writes a file whole or not at all: a temp file beside it, then a rename. */
export function writeAtomic(path: string, data: string | Uint8Array, mode = 0o600): void {
  mkdirSync(dirname(path), {recursive: true, mode: 0o700})
  const tmp = `${path}.${process.pid}.tmp`
  try {
    writeFileSync(tmp, data, {mode})
    chmodSync(tmp, mode)
    renameSync(tmp, path)
  } catch (error) {
    rmSync(tmp, {force: true})
    throw error
  }
}
