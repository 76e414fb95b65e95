import {closeSync, constants, fstatSync, openSync, readSync} from 'node:fs'

/** The most tapir reads of a file a user or an agent names (a scenario, a run file). */
export const MAX_INPUT_BYTES = 16 * 1024 * 1024

/** Reads a regular file's bytes, refusing anything else: a FIFO or a device (/dev/stdin,
 *  /dev/zero) would block or never end, and a huge file would fill the memory. The open does not
 *  block, and the size is checked on the open descriptor. Errors are Node's, with a `code`
 *  (ELOOP for a symbolic link when `followLinks` is false). */
export function readBoundedBytes(path: string, maxBytes = MAX_INPUT_BYTES, options: {followLinks?: boolean} = {}): Buffer {
  const noFollow = options.followLinks === false ? (constants.O_NOFOLLOW ?? 0) : 0
  const fd = openSync(path, constants.O_RDONLY | (constants.O_NONBLOCK ?? 0) | noFollow)
  try {
    const stats = fstatSync(fd)
    if (!stats.isFile()) throw Object.assign(new Error('not a regular file'), {code: 'ENOTREG'})
    if (stats.size > maxBytes) throw Object.assign(new Error(`larger than ${maxBytes / 1024 / 1024} MB`), {code: 'EFBIG'})
    const buffer = Buffer.alloc(stats.size)
    let read = 0
    while (read < stats.size) {
      const count = readSync(fd, buffer, read, stats.size - read, read)
      if (count === 0) break
      read += count
    }
    return buffer.subarray(0, read)
  } finally {
    closeSync(fd)
  }
}

/** `readBoundedBytes` as UTF-8 text. */
export function readBoundedText(path: string, maxBytes = MAX_INPUT_BYTES, options: {followLinks?: boolean} = {}): string {
  return readBoundedBytes(path, maxBytes, options).toString('utf8')
}
