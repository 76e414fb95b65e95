import {join} from 'node:path'
import {isExecutable, pathFolders} from '../executable.js'
import {CdpError} from './errors.js'

const NAMES_ON_PATH = ['chromium', 'chromium-browser', 'google-chrome', 'google-chrome-stable', 'chrome']

const INSTALL_PATHS: Readonly<Record<string, readonly string[]>> = {
  linux: ['/usr/lib/chromium/chromium', '/usr/lib/chromium-browser/chromium-browser', '/opt/google/chrome/chrome', '/snap/bin/chromium'],
  darwin: ['/Applications/Google Chrome.app/Contents/MacOS/Google Chrome', '/Applications/Chromium.app/Contents/MacOS/Chromium'],
  win32: ['C:\\Program Files\\Google\\Chrome\\Application\\chrome.exe', 'C:\\Program Files (x86)\\Google\\Chrome\\Application\\chrome.exe'],
}

/** The browser to launch: TAPIR_CHROME_BIN, else the usual names on PATH, else the platform's
 *  usual install paths. */
export function findChrome(env: NodeJS.ProcessEnv, platform: NodeJS.Platform = process.platform): string {
  const named = env.TAPIR_CHROME_BIN
  if (named) {
    if (isExecutable(named)) return named
    throw new CdpError(`TAPIR_CHROME_BIN names ${named}, which is not an executable file. Point it at a Chrome or Chromium binary.`)
  }
  const dirs = pathFolders(env)
  for (const name of NAMES_ON_PATH) {
    for (const dir of dirs) if (isExecutable(join(dir, name))) return join(dir, name)
  }
  for (const path of INSTALL_PATHS[platform] ?? []) if (isExecutable(path)) return path
  throw new CdpError(
    `No Chrome or Chromium found (looked for ${NAMES_ON_PATH.join(', ')} on PATH and the usual install paths). Install one, or set TAPIR_CHROME_BIN=/path/to/chrome.`,
  )
}
