import {lstatSync} from 'node:fs'
import {isAbsolute, join, normalize, relative, sep} from 'node:path'
import {IMAGE_OUTPUT, type OutputKind} from '../output-file.js'
import {readBoundedBytes} from '../read-bounded.js'

/** A screenshot larger than this is left out of a page. */
const MAX_IMAGE_BYTES = 8 * 1024 * 1024

/** Whether a path a report names stays inside the report's folder. */
export function staysInside(path: string): boolean {
  return !isAbsolute(path) && !normalize(path).split(/[\\/]/).includes('..')
}

/** A screenshot a report names relative to `folder`, read when every part of that path is what it
 *  says (folders, then a regular file of at most MAX_IMAGE_BYTES, no symbolic link anywhere below
 *  `folder`) and its bytes are a PNG or JPEG image; undefined otherwise. A forged report (or an
 *  `evidence` folder that links elsewhere) so never pulls another file of the machine into a page. */
export function readEvidenceImage(folder: string, path: string): Buffer | undefined {
  return readEvidenceFile(folder, path, MAX_IMAGE_BYTES, IMAGE_OUTPUT)
}

/** A file a report names relative to `folder`, read as readEvidenceImage reads an image: through
 *  folders and no link below `folder`, a regular file of at most `maxBytes` whose first bytes are
 *  `kind`'s own; undefined otherwise. */
export function readEvidenceFile(folder: string, path: string, maxBytes: number, kind: OutputKind): Buffer | undefined {
  if (!staysInside(path)) return undefined
  const parts = normalize(path)
    .split(/[\\/]/)
    .filter((part) => part !== '' && part !== '.')
  if (parts.length === 0) return undefined
  let at = folder
  try {
    for (const [index, part] of parts.entries()) {
      at = join(at, part)
      const stats = lstatSync(at, {throwIfNoEntry: false})
      if (!stats || stats.isSymbolicLink()) return undefined
      if (index < parts.length - 1 ? !stats.isDirectory() : !stats.isFile()) return undefined
    }
    const bytes = readBoundedBytes(at, maxBytes, {followLinks: false})
    return kind.isOwn(bytes.subarray(0, kind.headBytes)) ? bytes : undefined
  } catch {
    return undefined
  }
}

/** The screenshot a merged report names relative to its own folder, read from inside the shard
 *  folder it came from (the shard folder itself is the user's to name; what lies below it is not). */
export function readMergedEvidence(outputDir: string, shards: readonly string[], path: string): Buffer | undefined {
  if (isAbsolute(path)) return undefined
  const absolute = join(outputDir, path)
  const shard = shards.find((folder) => absolute.startsWith(folder + sep))
  return shard === undefined ? undefined : readEvidenceImage(shard, relative(shard, absolute))
}
