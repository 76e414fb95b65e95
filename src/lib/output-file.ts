import {closeSync, constants, lstatSync, openSync, readSync} from 'node:fs'
import {TapirError, errorCode} from './errors.js'
import {fileError, writeAtomic} from './write-atomic.js'

/** How a verb that writes a file recognises its own earlier output, which it may replace. */
export interface OutputKind {
  /** What the file is, for messages: "an image", "a Chrome Trace JSON file". */
  what: string
  /** How many leading bytes `isOwn` needs to see. */
  headBytes: number
  isOwn(head: Buffer): boolean
}

function readHead(path: string, bytes: number): Buffer {
  const fd = openSync(path, constants.O_RDONLY | (constants.O_NOFOLLOW ?? 0))
  try {
    const buffer = Buffer.alloc(bytes)
    return buffer.subarray(0, readSync(fd, buffer, 0, bytes, 0))
  } finally {
    closeSync(fd)
  }
}

/** Writes a verb's output file. A new file is created; an existing one is replaced only when it
 *  is this verb's own earlier output (its mode and owner kept). A symbolic link, a folder or any
 *  other file is refused with the reason, so a path named by mistake (or by an agent) never costs
 *  the user a file. */
export function writeOutputFile(path: string, data: string | Uint8Array, kind: OutputKind): void {
  checkOutputFile(path, kind)
  writeAtomic(path, data, {refuseLinks: true})
}

/** Whether writeOutputFile may write `path`; throws its refusal. Lets a verb refuse before it
 *  asks the app anything, so a bad path is the local error it is (exit 1) whatever the app says. */
export function checkOutputFile(path: string, kind: OutputKind): void {
  if (/[/\\]$/.test(path)) throw new TapirError(`Cannot write ${path}: it names a folder. Name a file inside it instead.`, 'local')
  let stats
  try {
    stats = lstatSync(path)
  } catch (error) {
    if (errorCode(error) !== 'ENOENT') throw fileError('write', path, error)
  }
  if (stats?.isSymbolicLink())
    throw new TapirError(`Refusing to write ${path}: it is a symbolic link. Name the file itself, or another path.`, 'local')
  if (stats?.isDirectory()) throw new TapirError(`Cannot write ${path}: it is a folder. Name a file inside it instead.`, 'local')
  if (stats && !stats.isFile()) throw new TapirError(`Refusing to write ${path}: it is not a regular file.`, 'local')
  if (stats) {
    let head: Buffer
    try {
      head = readHead(path, kind.headBytes)
    } catch (error) {
      throw fileError('read', path, error)
    }
    if (!kind.isOwn(head))
      throw new TapirError(
        `Refusing to replace ${path}: it exists and is not ${kind.what} tapir wrote. Remove it, or choose another path.`,
        'local',
      )
  }
}

export const IMAGE_OUTPUT: OutputKind = {
  what: 'an image',
  headBytes: 8,
  isOwn: (head) =>
    head.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) ||
    head.subarray(0, 3).equals(Buffer.from([0xff, 0xd8, 0xff])),
}

/** tapir writes a trace as compact JSON whose first key is traceEvents (see perf-verbs). */
export const TRACE_OUTPUT: OutputKind = {
  what: 'a Chrome Trace JSON file',
  headBytes: 16,
  isOwn: (head) => head.toString('utf8').startsWith('{"traceEvents":['),
}

/** A perf run file (`<scenario>-<label>.json`), as tapir:perf_run writes it. */
export const RUN_OUTPUT: OutputKind = {
  what: 'a perf run file',
  headBytes: 16,
  isOwn: (head) => head.toString('utf8').startsWith('{\n  "scenario": '),
}

/** A campaign scenario's error file (`<scenario>-<label>.err`). */
export const CAMPAIGN_ERROR_OUTPUT: OutputKind = {
  what: 'a perf campaign error file',
  headBytes: 8,
  isOwn: (head) => head.toString('utf8').startsWith('attempt '),
}

/** The first bytes of every perf report page tapir writes. */
export const REPORT_HEAD = '<!DOCTYPE html>\n<!-- tapir perf report -->\n'

/** A perf report page (tapir:perf_run/perf_compare --html, a campaign's index.html). */
export const REPORT_OUTPUT: OutputKind = {
  what: 'a perf report',
  headBytes: REPORT_HEAD.length,
  isOwn: (head) => head.toString('utf8') === REPORT_HEAD,
}
