import {existsSync, realpathSync} from 'node:fs'
import {dirname, join, resolve} from 'node:path'

/** The nearest ancestor of `cwd` holding a pubspec.yaml, else `cwd` itself (canonical). */
export function findProjectRoot(cwd: string): string {
  const start = canonical(cwd)
  for (let dir = start; ; dir = dirname(dir)) {
    if (existsSync(join(dir, 'pubspec.yaml'))) return dir
    if (dirname(dir) === dir) return start
  }
}

export function canonical(path: string): string {
  const absolute = resolve(path)
  try {
    return realpathSync(absolute)
  } catch {
    return absolute.replace(/[/\\]+$/, '') || absolute
  }
}

export function isWithin(child: string, parent: string): boolean {
  const a = canonical(child)
  const b = canonical(parent)
  return a === b || a.startsWith(b.endsWith('/') ? b : `${b}/`)
}
