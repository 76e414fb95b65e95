import {chmodSync, mkdirSync, renameSync, rmSync, writeFileSync} from 'node:fs'
import {dirname} from 'node:path'

/** Writes a file whole or not at all: a temp file beside it, then a rename. Missing folders are
 *  created with `dirMode`; both modes default to what a user's own file gets. */
export function writeAtomic(path: string, data: string | Uint8Array, {mode = 0o644, dirMode = 0o755}: {mode?: number; dirMode?: number} = {}): void {
  mkdirSync(dirname(path), {recursive: true, mode: dirMode})
  const tmp = `${path}.${process.pid}.tmp`
  try {
    writeFileSync(tmp, data, {mode})
    chmodSync(tmp, mode)
    renameSync(tmp, path)
  } catch (error) {
    rmSync(tmp, {force: true})
    throw error
  }
}
