import {spawn} from 'node:child_process'
import {join, resolve} from 'node:path'
import {isExecutable, pathFolders} from '../executable.js'

/** The program that hands a file to the desktop's browser, when there is a desktop: `open` on
 *  macOS, `xdg-open` on Linux with a display, `explorer.exe` on Windows (cmd's `start` would read
 *  `&` in a file name as a second command). */
function opener(env: NodeJS.ProcessEnv): {command: string; args: (path: string) => string[]} | undefined {
  if (process.platform === 'darwin') return {command: '/usr/bin/open', args: (path) => [path]}
  if (process.platform === 'win32') return {command: 'explorer.exe', args: (path) => [path]}
  if (!env.DISPLAY && !env.WAYLAND_DISPLAY) return undefined
  const found = pathFolders(env)
    .map((folder) => join(folder, 'xdg-open'))
    .find(isExecutable)
  return found ? {command: found, args: (path) => [path]} : undefined
}

/** Opens the page in the desktop's browser, without waiting for it; false when there is none. */
export function openPage(path: string, env: NodeJS.ProcessEnv): boolean {
  const program = opener(env)
  if (!program) return false
  try {
    // absolute, so a name that starts with "-" is never read as an option
    const child = spawn(program.command, program.args(resolve(path)), {stdio: 'ignore', detached: true, env})
    child.on('error', () => undefined)
    child.unref()
    return true
  } catch {
    return false
  }
}
