import {unlinkSync} from 'node:fs'
import {errorCode} from '../errors.js'
import {fileError, writeAtomic} from '../write-atomic.js'
import type {SessionLocation} from './location.js'
import {checkFolders} from './store.js'
import {readTrustedFile} from './trust.js'

/** A state file beside the session file (`<session>.<suffix>`), so every tapir process that
 *  drives the app (a CLI verb, a tapir:run, an MCP server) sees the same one: the recording's,
 *  the trace's. What it holds is private JSON, its owner's to read. */
export interface SidecarState {
  path(location: SessionLocation): string
  /** The state, or undefined when none is on (or it is not JSON). */
  read(location: SessionLocation): unknown
  write(location: SessionLocation, state: unknown): void
  /** Removes it; true when one was on. */
  clear(location: SessionLocation): boolean
}

/** `what` names it in an error ("the recording"). */
export function sidecarState(suffix: string, what: string): SidecarState {
  const path = (location: SessionLocation) => `${location.path}.${suffix}`
  return {
    path,
    read(location) {
      checkFolders(location)
      const text = readTrustedFile(path(location))
      if (text === undefined) return undefined
      try {
        const value: unknown = JSON.parse(text)
        return value
      } catch {
        return undefined
      }
    },
    write(location, state) {
      checkFolders(location)
      writeAtomic(path(location), `${JSON.stringify(state)}\n`, {mode: 0o600, private: true, dirMode: 0o700})
    },
    clear(location) {
      try {
        unlinkSync(path(location))
        return true
      } catch (error) {
        if (errorCode(error) === 'ENOENT') return false
        throw fileError(`end ${what}: remove`, path(location), error)
      }
    },
  }
}
