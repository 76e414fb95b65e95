import {lstatSync, readdirSync, type Stats} from 'node:fs'
import {join, relative, resolve, sep} from 'node:path'
import {UsageError, messageOf} from '../errors.js'

/** More test files than this is a mistake (a path to the whole disk), not a suite. */
export const MAX_TESTS = 10_000
const MAX_DEPTH = 32

/** Every `*.tapir` file under the paths (folders walked recursively, dot folders and
 *  node_modules skipped, symbolic links not followed), as paths relative to `cwd` with `/`,
 *  sorted and without duplicates. A file named on its own is a test whatever its name. */
export function findTests(paths: readonly string[], cwd: string): string[] {
  const found = new Set<string>()
  for (const path of paths.length === 0 ? ['.'] : paths) {
    const absolute = resolve(cwd, path)
    let stats: Stats
    try {
      stats = lstatSync(absolute)
    } catch (error) {
      throw new UsageError(`Cannot read ${path}: ${messageOf(error)}. Give a *.tapir file or a folder of them.`)
    }
    if (stats.isFile()) found.add(absolute)
    else if (stats.isDirectory()) walk(absolute, 0, found, path)
    else throw new UsageError(`${path} is neither a file nor a folder. Give a *.tapir file or a folder of them.`)
    if (found.size > MAX_TESTS) throw new UsageError(`More than ${MAX_TESTS} test files under ${path}; name the folders of your flows.`)
  }
  const tests = [...found].map((file) => relative(cwd, file).split(sep).join('/')).sort()
  if (tests.length === 0)
    throw new UsageError(
      `No *.tapir files under ${paths.length === 0 ? 'this folder' : paths.join(', ')}. Write a flow (tapir record writes one), or name its folder.`,
    )
  return tests
}

function walk(folder: string, depth: number, found: Set<string>, named: string): void {
  if (found.size > MAX_TESTS) return
  // Said, not skipped: a flow left out without a word would let the run pass without it.
  if (depth > MAX_DEPTH)
    throw new UsageError(
      `${folder} is more than ${MAX_DEPTH} folders below ${named}, deeper than tapir test looks. Name that folder on its own (tapir test <folder>).`,
    )
  let entries
  try {
    entries = readdirSync(folder, {withFileTypes: true})
  } catch (error) {
    throw new UsageError(`Cannot read the folder ${folder}: ${messageOf(error)}.`)
  }
  for (const entry of entries) {
    if (entry.name.startsWith('.') || entry.name === 'node_modules') continue
    const path = join(folder, entry.name)
    if (entry.isDirectory()) walk(path, depth + 1, found, named)
    else if (entry.isFile() && entry.name.endsWith('.tapir')) found.add(path)
  }
}
