import {unlinkSync} from 'node:fs'
import {errorCode} from '../errors.js'
import {fileError, writeAtomic} from '../write-atomic.js'
import type {SessionLocation} from './location.js'
import {checkFolders} from './store.js'
import {readTrustedFile} from './trust.js'

/** The session's recording: a file beside the session file, so every tapir process that drives
 *  the app (a CLI verb, a tapir:run, an MCP server) appends to the same recording. What it holds
 *  is the recorder's to read (record/state.ts): here it is private JSON. */
export function recordingStatePath(location: SessionLocation): string {
  return `${location.path}.recording`
}

/** The recording's state, or undefined when none is on (or it is not JSON). */
export function readRecordingState(location: SessionLocation): unknown {
  checkFolders(location)
  const text = readTrustedFile(recordingStatePath(location))
  if (text === undefined) return undefined
  try {
    const value: unknown = JSON.parse(text)
    return value
  } catch {
    return undefined
  }
}

export function writeRecordingState(location: SessionLocation, state: unknown): void {
  checkFolders(location)
  writeAtomic(recordingStatePath(location), `${JSON.stringify(state)}\n`, {mode: 0o600, private: true, dirMode: 0o700})
}

/** Ends the session's recording; true when one was on. */
export function clearRecordingState(location: SessionLocation): boolean {
  try {
    unlinkSync(recordingStatePath(location))
    return true
  } catch (error) {
    if (errorCode(error) === 'ENOENT') return false
    throw fileError('end the recording: remove', recordingStatePath(location), error)
  }
}
