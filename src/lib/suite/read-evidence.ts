import {isAbsolute, normalize, resolve} from 'node:path'
import {readBoundedBytes} from '../read-bounded.js'

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
  try {
    return readBoundedBytes(resolve(folder, path), MAX_IMAGE_BYTES, {followLinks: false})
  } catch {
    return undefined
  }
}
