import {readdirSync, readFileSync, statSync} from 'node:fs'
import {homedir} from 'node:os'
import {join, posix, win32} from 'node:path'
import {isExecutable, pathFolders} from '../executable.js'
import {CdpError} from './errors.js'

/** Variables that name the browser, most specific first: tapir's own, then the one Chrome
 *  launchers and test runners share. */
const NAMING_VARIABLES = ['TAPIR_CHROME_BIN', 'CHROME_PATH'] as const

const NAMES_ON_PATH: {readonly [platform: string]: readonly string[] | undefined; readonly default: readonly string[]} = {
  win32: ['chrome.exe', 'chromium.exe'],
  default: ['chromium', 'chromium-browser', 'google-chrome', 'google-chrome-stable', 'google-chrome-beta', 'chrome'],
}

/** A desktop entry's file name that launches Chrome or Chromium (Linux menus). */
const DESKTOP_ENTRY = /^(google-chrome[\w-]*|chromium[\w-]*|com\.google\.Chrome[\w.-]*|org\.chromium\.Chromium)\.desktop$/
/** The most of a desktop entry read: they are a few kilobytes. */
const MAX_DESKTOP_ENTRY_BYTES = 256 * 1024

/** A variable's value, whatever its case (Windows variables are case-insensitive). */
function variable(env: NodeJS.ProcessEnv, name: string): string | undefined {
  const key = Object.keys(env).find((candidate) => candidate.toUpperCase() === name.toUpperCase())
  const value = key === undefined ? undefined : env[key]
  return value === undefined || value === '' ? undefined : value
}

/** Where Chrome and Chromium install on each platform, for a user and for everyone, in the order
 *  they are tried after PATH. */
export function installPaths(env: NodeJS.ProcessEnv, platform: NodeJS.Platform, home = variable(env, 'HOME') ?? homedir()): string[] {
  switch (platform) {
    case 'darwin': {
      const bundles: Array<[app: string, binary: string]> = [
        ['Google Chrome', 'Google Chrome'],
        ['Chromium', 'Chromium'],
        ['Google Chrome Beta', 'Google Chrome Beta'],
        ['Google Chrome Dev', 'Google Chrome Dev'],
        ['Google Chrome Canary', 'Google Chrome Canary'],
      ]
      return ['/Applications', posix.join(home, 'Applications')].flatMap((folder) =>
        bundles.map(([app, binary]) => posix.join(folder, `${app}.app`, 'Contents', 'MacOS', binary)),
      )
    }
    case 'win32': {
      const prefixes = ['LOCALAPPDATA', 'PROGRAMFILES', 'PROGRAMFILES(X86)', 'ProgramW6432'].flatMap((name) => variable(env, name) ?? [])
      const apps = [['Google', 'Chrome'], ['Chromium'], ['Google', 'Chrome Beta'], ['Google', 'Chrome SxS']]
      return [...new Set(prefixes.flatMap((prefix) => apps.map((app) => win32.join(prefix, ...app, 'Application', 'chrome.exe'))))]
    }
    case 'linux':
    case 'freebsd':
    case 'openbsd':
      // The user's own menu entries first (a browser unpacked in their home), then where
      // packages install, then the system's menu entries.
      return [
        ...desktopEntryPaths([userDataHome(env, home)]),
        '/opt/google/chrome/chrome',
        '/opt/google/chrome-beta/chrome',
        '/opt/google/chrome-unstable/chrome',
        '/usr/lib/chromium/chromium',
        '/usr/lib/chromium-browser/chromium-browser',
        '/usr/lib64/chromium-browser/chromium-browser',
        '/usr/local/bin/chrome',
        '/snap/bin/chromium',
        '/var/lib/flatpak/exports/bin/com.google.Chrome',
        '/var/lib/flatpak/exports/bin/org.chromium.Chromium',
        posix.join(home, '.local/share/flatpak/exports/bin/com.google.Chrome'),
        posix.join(home, '.local/share/flatpak/exports/bin/org.chromium.Chromium'),
        ...desktopEntryPaths((variable(env, 'XDG_DATA_DIRS') ?? '/usr/local/share:/usr/share').split(':').filter((dir) => dir !== '')),
      ]
    default:
      return []
  }
}

const userDataHome = (env: NodeJS.ProcessEnv, home: string): string => variable(env, 'XDG_DATA_HOME') ?? posix.join(home, '.local/share')

/** The programs that the desktop menu entries for Chrome and Chromium in these XDG data
 *  folders start. */
function desktopEntryPaths(dataDirs: string[]): string[] {
  return dataDirs.flatMap((dir) => {
    const folder = posix.join(dir, 'applications')
    let names: string[]
    try {
      names = readdirSync(folder).filter((name) => DESKTOP_ENTRY.test(name))
    } catch {
      return []
    }
    return names.sort().flatMap((name) => {
      const program = desktopEntryProgram(posix.join(folder, name))
      return program ? [program] : []
    })
  })
}

/** The absolute program of a desktop entry's `Exec=` line, quoted or not; arguments dropped. */
function desktopEntryProgram(file: string): string | undefined {
  try {
    const stats = statSync(file)
    if (!stats.isFile() || stats.size > MAX_DESKTOP_ENTRY_BYTES) return undefined
    const exec = /^Exec=(.*)$/m.exec(readFileSync(file, 'utf8'))?.[1]?.trim()
    const program = exec?.startsWith('"') ? exec.slice(1, exec.indexOf('"', 1)) : exec?.split(/\s/)[0]
    return program?.startsWith('/') ? program : undefined
  } catch {
    return undefined
  }
}

/** The browser to launch: TAPIR_CHROME_BIN, else CHROME_PATH, else Chrome or Chromium by its
 *  usual names on PATH, else where it installs on this platform (on Linux also what the
 *  desktop's menu entries start). A variable that names no executable is refused, not skipped. */
export function findChrome(env: NodeJS.ProcessEnv, platform: NodeJS.Platform = process.platform): string {
  for (const name of NAMING_VARIABLES) {
    const named = variable(env, name)
    if (named === undefined) continue
    if (isExecutable(named)) return named
    throw new CdpError(`${name} names ${named}, which is not an executable file. Point it at a Chrome or Chromium binary.`)
  }
  const names = NAMES_ON_PATH[platform] ?? NAMES_ON_PATH.default
  const folders = pathFolders(env)
  const joinPath = platform === 'win32' ? win32.join : join
  for (const name of names) {
    for (const folder of folders) if (isExecutable(joinPath(folder, name))) return joinPath(folder, name)
  }
  for (const path of installPaths(env, platform)) if (isExecutable(path)) return path
  throw new CdpError(
    `No Chrome or Chromium found (looked for TAPIR_CHROME_BIN and CHROME_PATH, then ${names.join(', ')} on PATH, then the usual install paths). Install one (${INSTALL_COMMAND[platform] ?? INSTALL_COMMAND.default}), or point tapir at one: TAPIR_CHROME_BIN=/path/to/chrome (or CHROME_PATH).`,
  )
}

/** The usual way to install a browser tapir finds, per platform. */
const INSTALL_COMMAND: {readonly [platform: string]: string | undefined; readonly default: string} = {
  linux: 'Debian and Ubuntu: sudo apt-get install chromium; Fedora: sudo dnf install chromium',
  darwin: 'brew install --cask google-chrome',
  win32: 'winget install Google.Chrome',
  default: 'see https://www.chromium.org/getting-involved/download-chromium/',
}
