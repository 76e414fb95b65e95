import {readFileSync} from 'node:fs'

let version: string | undefined

/** tapir's version, from the package.json beside dist/ (what oclif's `--version` prints). */
export function tapirVersion(): string {
  if (version === undefined) {
    try {
      const read: unknown = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8'))
      version = typeof read === 'object' && read !== null && 'version' in read && typeof read.version === 'string' ? read.version : '0.0.0'
    } catch {
      version = '0.0.0'
    }
  }
  return version
}
