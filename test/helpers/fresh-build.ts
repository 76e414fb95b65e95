import {existsSync, readdirSync, statSync} from 'node:fs'
import {join, relative, resolve} from 'node:path'

const ROOT = resolve(import.meta.dirname, '..', '..')

interface Dated {
  path: string
  mtimeMs: number
}

/** The newest or the oldest file below `dir` by modification time. */
function extreme(dir: string, pick: 'newest' | 'oldest'): Dated | undefined {
  if (!existsSync(dir)) return undefined
  let found: Dated | undefined
  for (const entry of readdirSync(dir, {withFileTypes: true, recursive: true})) {
    if (!entry.isFile()) continue
    const path = join(entry.parentPath, entry.name)
    const {mtimeMs} = statSync(path)
    if (found === undefined || (pick === 'newest' ? mtimeMs > found.mtimeMs : mtimeMs < found.mtimeMs)) {
      found = {path, mtimeMs}
    }
  }
  return found
}

/** Why `root`'s dist/ cannot stand for its src/, or undefined when it can: a build writes every
 *  file of dist/ anew, so its oldest file must be newer than the newest source. */
export function staleBuild(root: string): string | undefined {
  const source = extreme(join(root, 'src'), 'newest')
  if (source === undefined) return undefined
  const built = extreme(join(root, 'dist'), 'oldest')
  const fix = 'run `npm run build` first (the e2e tests run the built CLI, not src/)'
  if (built === undefined) return `dist/ is missing: ${fix}`
  if (source.mtimeMs > built.mtimeMs) return `dist/ is older than ${relative(root, source.path)}: ${fix}`
  return undefined
}

/** vitest's global set-up for the e2e tier: against a stale dist/ it would test yesterday's code
 *  and pass, so the run stops before any test, with one line. */
export function setup(): void {
  const why = staleBuild(ROOT)
  if (why === undefined) return
  const error = new Error(why)
  error.stack = why
  throw error
}
