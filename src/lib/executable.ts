import {accessSync, constants, statSync} from 'node:fs'
import {delimiter} from 'node:path'

/** Whether `path` is a file this user may run. */
export function isExecutable(path: string): boolean {
  try {
    accessSync(path, constants.X_OK)
    return statSync(path).isFile()
  } catch {
    return false
  }
}

/** The folders of PATH, in order, empty entries left out. */
export function pathFolders(env: NodeJS.ProcessEnv): string[] {
  return (env.PATH ?? '').split(delimiter).filter((folder) => folder !== '')
}
