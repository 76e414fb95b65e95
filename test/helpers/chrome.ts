import {accessSync, constants, existsSync} from 'node:fs'
import {delimiter, join} from 'node:path'

function executable(path: string): boolean {
  try {
    accessSync(path, constants.X_OK)
    return true
  } catch {
    return false
  }
}

let found: Promise<string> | undefined

/**
 * The Chromium the browser tests drive: TAPIR_CHROME_BIN, else Debian's `chromium` on PATH (its
 * real binary, not the wrapper script), else the headless build the @sparticuz/chromium
 * devDependency ships (unpacked into the temp folder, no network). There is no skipping: with
 * none of them the tests fail, in CI and here alike.
 */
export function chromeBinary(): Promise<string> {
  found ??= locate()
  return found
}

async function locate(): Promise<string> {
  const named = process.env.TAPIR_CHROME_BIN
  if (named) {
    if (!executable(named)) throw new Error(`TAPIR_CHROME_BIN=${named} is not executable`)
    return named
  }
  const onPath = (process.env.PATH ?? '').split(delimiter).some((dir) => dir !== '' && executable(join(dir, 'chromium')))
  if (onPath && executable('/usr/lib/chromium/chromium')) return '/usr/lib/chromium/chromium'
  try {
    const {default: chromium} = await import('@sparticuz/chromium')
    const path = await chromium.executablePath()
    if (existsSync(path)) return path
    throw new Error(`${path} is missing after unpacking`)
  } catch (error) {
    throw new Error(
      `No Chromium for the browser tests: set TAPIR_CHROME_BIN, install Debian's chromium, or run npm ci (for @sparticuz/chromium). ${(error as Error).message}`,
      {cause: error},
    )
  }
}
