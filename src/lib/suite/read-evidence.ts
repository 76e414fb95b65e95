import {closeSync, constants, fstatSync, openSync, readSync} from 'node:fs'
import {isAbsolute, normalize, resolve} from 'node:path'

/** A screenshot larger than this is left out of a page. */
const MAX_IMAGE_BYTES = 8 * 1024 * 1024

/** Whether a path a report names stays inside the report's folder. */
export function staysInside(path: string): boolean {
  return !isAbsolute(path) && !normalize(path).split(/[\\/]/).includes('..')
}

/** A file a report names relative to its folder, read when it is a regular file of at most
 *  MAX_IMAGE_BYTES (no link followed); undefined otherwise. */
export function readBoundedFile(folder: string, path: string): Buffer | undefined {
  if (isAbsolute(path)) return undefined
  let fd: number | undefined
  try {
    fd = openSync(resolve(folder, path), constants.O_RDONLY | (constants.O_NOFOLLOW ?? 0) | constants.O_NONBLOCK)
    const stats = fstatSync(fd)
    if (!stats.isFile() || stats.size > MAX_IMAGE_BYTES) return undefined
    const buffer = Buffer.alloc(stats.size)
    let size = 0
    while (size < stats.size) {
      const read = readSync(fd, buffer, size, stats.size - size, size)
      if (read === 0) break
      size += read
    }
    return buffer.subarray(0, size)
  } catch {
    return undefined
  } finally {
    if (fd !== undefined) closeSync(fd)
  }
}
