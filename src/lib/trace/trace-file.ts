import {statSync} from 'node:fs'
import {join} from 'node:path'
import {TapirError, errorCode} from '../errors.js'
import {checkOutputFile, type OutputKind} from '../output-file.js'
import {appendWhole, ensureFolder, writeAtomic} from '../write-atomic.js'
import {TRACE_HEAD, type TraceEntry, type TraceHeader} from './format.js'

export const TRACE_OUTPUT: OutputKind = {
  what: 'a tapir trace',
  headBytes: TRACE_HEAD.length,
  isOwn: (head) => head.toString('utf8') === TRACE_HEAD,
}

/** Refuses, before anything runs, a trace path tapir may not write (a link, a folder, anyone
 *  else's file). */
export function checkTraceFile(path: string): void {
  checkOutputFile(path, TRACE_OUTPUT)
}

/** A new trace's path in `folder` (made when missing), named by the time and this process. */
export function traceFileIn(folder: string, prefix: string): string {
  ensureFolder(folder)
  const path = join(folder, `${prefix}-${new Date().toISOString().replace(/[:.]/g, '-')}-${process.pid}.trace`)
  checkTraceFile(path)
  return path
}

/** Starts a trace afresh: a new file, or tapir's own earlier trace replaced; a symbolic link, a
 *  folder or anyone else's file is refused (exit 1). */
export function startTraceFile(path: string, header: TraceHeader): void {
  checkOutputFile(path, TRACE_OUTPUT)
  writeAtomic(path, `${JSON.stringify(header)}\n`, {refuseLinks: true, mode: 0o600})
}

/** Appends one entry as one line, whole: a process killed later leaves every line before it
 *  readable. Answers the file's size after it. */
export function appendTraceEntry(path: string, entry: TraceEntry): number {
  return appendWhole(path, `${JSON.stringify(entry)}\n`)
}

/** The trace's size now, or a one-line error when it is gone. */
export function traceSize(path: string): number {
  try {
    return statSync(path).size
  } catch (error) {
    if (errorCode(error) === 'ENOENT') throw new TapirError(`The trace ${path} is gone; start a new one.`, 'local')
    throw error
  }
}
