import {unlinkSync} from 'node:fs'
import {errorCode} from '../errors.js'
import {fileError, writeAtomic} from '../write-atomic.js'
import type {SessionLocation} from './location.js'
import {checkFolders} from './store.js'
import {readTrustedFile} from './trust.js'

/** The session's trace (tapir trace start): a file beside the session file, so every tapir
 *  process that drives the app appends to the same trace. What it holds is trace/'s to read. */
export function traceStatePath(location: SessionLocation): string {
  return `${location.path}.tracing`
}

/** The trace's state, or undefined when none is on (or it is not JSON). */
export function readTraceState(location: SessionLocation): unknown {
  checkFolders(location)
  const text = readTrustedFile(traceStatePath(location))
  if (text === undefined) return undefined
  try {
    const value: unknown = JSON.parse(text)
    return value
  } catch {
    return undefined
  }
}

export function writeTraceState(location: SessionLocation, state: unknown): void {
  checkFolders(location)
  writeAtomic(traceStatePath(location), `${JSON.stringify(state)}\n`, {mode: 0o600, private: true, dirMode: 0o700})
}

/** Ends the session's trace; true when one was on. */
export function clearTraceState(location: SessionLocation): boolean {
  try {
    unlinkSync(traceStatePath(location))
    return true
  } catch (error) {
    if (errorCode(error) === 'ENOENT') return false
    throw fileError('end the trace: remove', traceStatePath(location), error)
  }
}
