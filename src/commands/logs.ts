import {closeSync, constants, fstatSync, openSync, readSync} from 'node:fs'
import {BoundedLines, type BoundedLine} from '../lib/bounded-lines.js'
import {defineCommand} from '../lib/commands/types.js'
import {TapirError} from '../lib/errors.js'
import {EXIT} from '../lib/output/exit-codes.js'
import type {Outcome} from '../lib/output/outcome.js'
import {printStreamLines} from '../lib/output/print.js'
import {checkOwned} from '../lib/session/owned-process.js'
import {noSessionError} from '../lib/session/require-session.js'
import type {Session} from '../lib/session/session.js'
import {readOwnSession} from '../lib/session/store.js'
import {fileError} from '../lib/write-atomic.js'

const FOLLOW_POLL_MS = 200
/** The log is read this much at a time: a log of any size is printed in constant memory. */
const CHUNK_BYTES = 1024 * 1024
/** A longer line is cut there (an app that prints a whole file on one line). */
const MAX_LINE_BYTES = 64 * 1024

/** The log, opened as a regular file it is (never a link, a FIFO or a device a session might name). */
function openLog(path: string): number {
  let fd: number
  try {
    fd = openSync(path, constants.O_RDONLY | (constants.O_NONBLOCK ?? 0) | (constants.O_NOFOLLOW ?? 0))
  } catch (error) {
    throw fileError('read the log', path, error)
  }
  if (!fstatSync(fd).isFile()) {
    closeSync(fd)
    throw new TapirError(`Cannot read the log ${path}: it is not a regular file.`, 'local')
  }
  return fd
}

/** Where the last `count` lines of the file begin, found by reading back from its end. */
function startOfLastLines(fd: number, size: number, count: number): number {
  const buffer = Buffer.alloc(CHUNK_BYTES)
  let end = size
  let newlines = 0
  // A newline that ends the file ends the last line; it does not start another.
  let skipLast = size > 0 && readSync(fd, buffer, 0, 1, size - 1) === 1 && buffer[0] === 10
  while (end > 0) {
    const start = Math.max(0, end - CHUNK_BYTES)
    const read = readSync(fd, buffer, 0, end - start, start)
    for (let index = read - 1; index >= 0; index--) {
      if (buffer[index] !== 10) continue
      if (skipLast) {
        skipLast = false
        continue
      }
      if (++newlines === count) return start + index + 1
    }
    end = start
  }
  return 0
}

/** The log as lines: what is there from an offset on, and what is added later. */
class LogReader {
  private readonly lines = new BoundedLines(MAX_LINE_BYTES)
  private readonly buffer = Buffer.alloc(CHUNK_BYTES)

  constructor(
    readonly path: string,
    public offset: number,
  ) {}

  /** Prints what the log holds past the offset, a chunk at a time; false once stdout is gone. */
  async print(): Promise<boolean> {
    const fd = openLog(this.path)
    try {
      const size = fstatSync(fd).size
      if (size < this.offset) this.offset = 0 // a new log: the app was started again
      while (this.offset < size) {
        const read = readSync(fd, this.buffer, 0, Math.min(CHUNK_BYTES, size - this.offset), this.offset)
        if (read === 0) break
        this.offset += read
        if (!(await printStreamLines(this.lines.push(this.buffer.subarray(0, read)).map(shown)))) return false
      }
      return true
    } finally {
      closeSync(fd)
    }
  }

  /** The last line, if the log does not end with a newline. */
  async finish(): Promise<void> {
    const last = this.lines.end()
    if (last) await printStreamLines([shown(last)])
  }
}

/** A line as printed; of a cut line, the word the cut went through is left out too (it may be a
 *  token, which hiding needs whole). */
function shown(line: BoundedLine): string {
  return line.cut ? `${line.text.replace(/\S+$/, '')}… (line cut at ${MAX_LINE_BYTES / 1024} KB)` : line.text
}

/** Whether what the session started still runs: the supervisor of a real app, or the app itself
 *  (the sim), as recorded. */
function stillRunning(session: Session): boolean {
  const {supervisor, app} = session.processes ?? {}
  return [supervisor, app].some((record) => record !== undefined && checkOwned(record).state === 'ours')
}

export const LOGS = defineCommand({
  id: 'logs',
  summary: "Print the app's log: what flutter run and the app printed since tapir start.",
  description:
    'With --follow it keeps printing new lines until the app stops or you press Ctrl-C; with --tail=<n>, only the last n lines first. The log is read a piece at a time, so a log of any size prints at once; a line over 64 KB is cut. VM Service auth tokens in the log are hidden.',
  examples: ['<%= config.bin %> logs', '<%= config.bin %> logs --tail=50', '<%= config.bin %> logs --follow --tail=0'],
  params: [
    {name: 'follow', type: 'boolean', char: 'f', default: false, description: 'Keep printing lines as the app writes them.'},
    {name: 'tail', type: 'integer', minimum: 0, description: 'Print only the last n lines of the log (then, with --follow, what comes).'},
  ],
  globals: 'all',
  session: 'reads',
  async run(flags, {location}): Promise<Outcome> {
    const session = readOwnSession(location)
    if (!session) throw noSessionError(location)
    const log = session.log
    if (typeof log !== 'string') throw new TapirError('This session has no log: only an app tapir started (tapir start) has one.', 'local')
    const fd = openLog(log)
    let offset: number
    try {
      const size = fstatSync(fd).size
      offset = flags.tail === undefined ? 0 : flags.tail === 0 ? size : startOfLastLines(fd, size, flags.tail)
    } finally {
      closeSync(fd)
    }
    const reader = new LogReader(log, offset)
    if (!flags.follow) {
      if (await reader.print()) await reader.finish()
      return {stdout: '', stderr: [], exitCode: EXIT.ok}
    }
    let interrupted = false
    const interrupt = (): void => void (interrupted = true)
    process.once('SIGINT', interrupt)
    try {
      if (!(await reader.print())) return {stdout: '', stderr: [], exitCode: EXIT.ok}
      while (!interrupted && stillRunning(session)) {
        await new Promise((resolve) => setTimeout(resolve, FOLLOW_POLL_MS))
        if (!(await reader.print())) return {stdout: '', stderr: [], exitCode: EXIT.ok}
      }
    } finally {
      process.off('SIGINT', interrupt)
    }
    await reader.print()
    await reader.finish()
    return {stdout: '', stderr: interrupted ? [] : ['✓ The app has stopped.'], exitCode: EXIT.ok}
  },
})
