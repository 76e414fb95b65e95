import {closeSync, constants, fstatSync, openSync, readSync} from 'node:fs'
import {TapirError, messageOf} from '../errors.js'

/** Step input larger than this is refused: a script of steps is a few KB; more is a mistake (or /dev/zero). */
export const MAX_STEP_BYTES = 4 * 1024 * 1024
const LIMIT_TEXT = `${MAX_STEP_BYTES / 1024 / 1024} MB`

/**
 * The text of a step source: a regular file, or `-` for stdin read to its end asynchronously (a
 * slow producer, a pipe larger than its buffer, a file or a terminal). Either is bounded by
 * MAX_STEP_BYTES and must be UTF-8 text.
 */
export async function readStepSource(source: string, stdin: AsyncIterable<Buffer | string>): Promise<string> {
  const name = source === '-' ? 'stdin' : source
  const bytes = source === '-' ? await readStream(stdin, name) : readRegularFile(source)
  return asText(bytes, name)
}

function cannotRead(name: string, reason: string): TapirError {
  return new TapirError(`Cannot read steps from ${name}: ${reason}`, 'local')
}

const tooLarge = (name: string) => cannotRead(name, `it holds more than ${LIMIT_TEXT}; split the steps into several runs.`)

async function readStream(stream: AsyncIterable<Buffer | string>, name: string): Promise<Buffer> {
  const chunks: Buffer[] = []
  let size = 0
  try {
    for await (const chunk of stream) {
      const buffer = typeof chunk === 'string' ? Buffer.from(chunk) : chunk
      size += buffer.length
      if (size > MAX_STEP_BYTES) throw tooLarge(name)
      chunks.push(buffer)
    }
  } catch (error) {
    if (error instanceof TapirError) throw error
    throw cannotRead(name, `${messageOf(error)}.`)
  }
  return Buffer.concat(chunks)
}

/** Read synchronously: a suite reads a file per test, and the promise API's module and a buffer of
 *  the whole bound for each read cost a run more than the read itself. */
function readRegularFile(path: string): Buffer {
  let fd: number
  try {
    // Non-blocking, so that a FIFO is refused below instead of waiting for a writer.
    fd = openSync(path, constants.O_RDONLY | constants.O_NONBLOCK)
  } catch (error) {
    throw cannotRead(path, `${messageOf(error)}.`)
  }
  try {
    const stat = fstatSync(fd)
    if (!stat.isFile()) throw cannotRead(path, 'it is not a regular file. Give a file of step lines, or - to read them from stdin.')
    if (stat.size > MAX_STEP_BYTES) throw tooLarge(path)
    // The file may grow while it is read: read on to its end, within the bound.
    const chunks: Buffer[] = []
    let size = 0
    for (;;) {
      const chunk = Buffer.allocUnsafe(Math.min(Math.max(stat.size - size + 1, 65_536), MAX_STEP_BYTES + 1 - size))
      const bytesRead = readSync(fd, chunk, 0, chunk.length, null)
      if (bytesRead === 0) break
      chunks.push(chunk.subarray(0, bytesRead))
      size += bytesRead
      if (size > MAX_STEP_BYTES) throw tooLarge(path)
    }
    return Buffer.concat(chunks, size)
  } catch (error) {
    if (error instanceof TapirError) throw error
    throw cannotRead(path, `${messageOf(error)}.`)
  } finally {
    closeSync(fd)
  }
}

const utf8 = new TextDecoder('utf-8', {fatal: true})

function asText(bytes: Buffer, name: string): string {
  const nul = bytes.indexOf(0)
  if (nul >= 0) throw cannotRead(name, `it is not text (a NUL byte at byte ${nul}); steps are UTF-8 lines.`)
  try {
    return utf8.decode(bytes)
  } catch {
    throw cannotRead(name, 'it is not text (invalid UTF-8); steps are UTF-8 lines.')
  }
}
