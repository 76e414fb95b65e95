import {unlinkSync} from 'node:fs'
import {TapirError, errorCode} from '../errors.js'
import {fileError, writeAtomic} from '../write-atomic.js'
import type {SessionLocation} from './location.js'
import {takeLock} from './lock.js'
import {checkFolders} from './store.js'
import {readTrustedFile} from './trust.js'

/** A state file beside the session file (`<session>.<suffix>`), so every tapir process that
 *  drives the app (a CLI verb, a tapir:run, an MCP server) sees the same one: the recording's,
 *  the trace's, find's zero-install handles. What it holds is private JSON, its owner's to read. */
export interface SidecarState {
  path(location: SessionLocation): string
  /** The state, or undefined when none is on (or it is not JSON). */
  read(location: SessionLocation): unknown
  write(location: SessionLocation, state: unknown): void
  /** Reads the state, runs `change` on it and writes what it gives back, all under the file's
   *  lock (`<file>.lock`), so a change another tapir process makes at the same time is never
   *  lost; answers `change`'s answer. `command` names this process in the lock. */
  update<T>(location: SessionLocation, command: string, change: (state: unknown) => {state: unknown; answer: T}): Promise<T>
  /** Removes it; true when one was on. */
  clear(location: SessionLocation): boolean
}

/** How long an update waits for another process's update of the same file (a read and a write,
 *  a few milliseconds): a holder that keeps it longer is stuck, and the update fails naming it. A
 *  holder that is gone (killed mid-update) is no wait at all: takeLock takes its lock over. */
const LOCK_WAIT_MS = 5_000
const LOCK_RETRY_MS = 10

class LockBusy extends TapirError {}

/** `what` names it in an error ("the recording"). */
export function sidecarState(suffix: string, what: string): SidecarState {
  const path = (location: SessionLocation) => `${location.path}.${suffix}`
  const read = (location: SessionLocation): unknown => {
    checkFolders(location)
    const text = readTrustedFile(path(location))
    if (text === undefined) return undefined
    try {
      const value: unknown = JSON.parse(text)
      return value
    } catch {
      return undefined
    }
  }
  const write = (location: SessionLocation, state: unknown): void => {
    checkFolders(location)
    writeAtomic(path(location), `${JSON.stringify(state)}\n`, {mode: 0o600, private: true, dirMode: 0o700})
  }
  const lock = async (location: SessionLocation, command: string): Promise<() => void> => {
    const lockPath = `${path(location)}.lock`
    const until = Date.now() + LOCK_WAIT_MS
    for (;;) {
      try {
        return takeLock(location, lockPath, command, (holder) => new LockBusy(`pid ${holder.pid}, \`tapir ${holder.command}\``, 'local'))
      } catch (error) {
        if (!(error instanceof LockBusy)) throw error
        if (Date.now() >= until)
          throw new TapirError(
            `Another tapir (${error.message}) has kept ${what} locked for ${LOCK_WAIT_MS / 1000} s; if it is stuck, stop it, then try again. Lock: ${lockPath}`,
            'local',
          )
      }
      await new Promise((resolve) => setTimeout(resolve, LOCK_RETRY_MS))
    }
  }
  return {
    path,
    read,
    write,
    async update(location, command, change) {
      const release = await lock(location, command)
      try {
        const {state, answer} = change(read(location))
        write(location, state)
        return answer
      } finally {
        release()
      }
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
