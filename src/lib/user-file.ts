import {accessSync, constants, lstatSync, realpathSync, statSync} from 'node:fs'
import {dirname} from 'node:path'
import {TapirError, errorCode} from './errors.js'
import {readBoundedBytes} from './read-bounded.js'
import {isWithin} from './session/project-root.js'
import {fileError} from './write-atomic.js'

/** A file of the user's that tapir edits (a pubspec, a main.dart, an MCP config): its bytes, or
 *  undefined when it does not exist. Only a regular file is read, without blocking and up to
 *  `maxBytes`, so a FIFO or a link to /dev/zero is refused rather than waited on. */
export function readUserFile(path: string, shown: string, maxBytes: number): Buffer | undefined {
  try {
    return readBoundedBytes(path, maxBytes)
  } catch (error) {
    const code = errorCode(error)
    if (code === 'ENOENT') return undefined
    if (code === 'EFBIG')
      throw new TapirError(`Cannot read ${shown}: it is larger than ${maxBytes / 1024 / 1024} MB. Nothing was written.`, 'local')
    if (code === 'ENOTREG') throw new TapirError(`Refusing to read ${shown}: it is not a regular file. Nothing was written.`, 'local')
    throw fileError('read', shown, error)
  }
}

const writable = (file: string): boolean => {
  try {
    accessSync(file, constants.W_OK)
    return true
  } catch {
    return false
  }
}

/** The nearest folder above `path` that exists, resolved through its links. */
function nearestFolder(path: string): string {
  for (let part = dirname(path); ; part = dirname(part)) {
    try {
      return realpathSync(part)
    } catch (error) {
      if (errorCode(error) !== 'ENOENT' || dirname(part) === part) throw error
    }
  }
}

/** Why tapir must not write (or create) a user's file in the project at `root`, or undefined when
 *  it may: the file or a folder on its way leads outside the project through a link, it is not a
 *  regular file, it is read-only, or its folder is. `command` is what to run again once fixed. */
export function writeRefusal(root: string, path: string, shown: string, command: string): string | undefined {
  const outside = (real: string) =>
    `Refusing to write ${shown}: it leads to ${real}, outside the project (through a symbolic link). Nothing was written.`
  let real: string | undefined
  try {
    real = realpathSync(path)
  } catch (error) {
    if (errorCode(error) !== 'ENOENT') return fileError('write', shown, error).message
  }
  try {
    if (real === undefined) {
      if (lstatSync(path, {throwIfNoEntry: false})?.isSymbolicLink())
        return `Refusing to write ${shown}: it is a symbolic link to a file that does not exist. Nothing was written.`
      const folder = nearestFolder(path)
      if (!isWithin(folder, root)) return outside(folder)
      if (!statSync(folder).isDirectory()) return `Cannot write ${shown}: ${folder} is not a folder. Nothing was written.`
      return writable(folder) ? undefined : `Cannot write ${shown}: its folder ${folder} is not writable. Nothing was written.`
    }
    if (!isWithin(real, root)) return outside(real)
    const stats = statSync(real)
    if (!stats.isFile()) return `Refusing to write ${shown}: it is not a regular file. Nothing was written.`
    if ((stats.mode & 0o222) === 0 || !writable(real))
      return `Refusing to write ${shown}: it is read-only. Make it writable (chmod u+w ${shown}), then run ${command} again. Nothing was written.`
    if (!writable(dirname(real))) return `Cannot write ${shown}: its folder ${dirname(real)} is not writable. Nothing was written.`
    return undefined
  } catch (error) {
    return fileError('write', shown, error).message
  }
}
