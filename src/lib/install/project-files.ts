import {existsSync, readFileSync, realpathSync} from 'node:fs'
import {join, relative, resolve, sep} from 'node:path'
import {TapirError, UsageError, errorCode} from '../errors.js'
import {readBoundedText} from '../read-bounded.js'
import {canonical, findProjectRoot} from '../session/project-root.js'
import {writeRefusal} from '../user-file.js'
import {FileChangedError, fileError, writeAtomic} from '../write-atomic.js'

/** A pubspec or a main.dart is source code, not data: a few megabytes at most. */
const MAX_SOURCE_BYTES = 4 * 1024 * 1024

export const DEFAULT_TARGET = join('lib', 'main.dart')

export interface ProjectPaths {
  root: string
  pubspec: string
  main: string
}

/** The Flutter project: `--project`, else the nearest folder holding a pubspec.yaml. `--target`
 *  is read from the project's folder, as `flutter run -t` reads it there. */
export function locateProject(cwd: string, project: string | undefined, target: string | undefined): ProjectPaths {
  let root: string
  if (project === undefined) {
    root = findProjectRoot(cwd)
    if (!existsSync(join(root, 'pubspec.yaml')))
      throw new UsageError(
        `No pubspec.yaml in ${cwd} or any folder above it: run this in your Flutter app's folder, or pass --project=<dir>.`,
      )
  } else {
    root = canonical(resolve(cwd, project))
    if (!existsSync(join(root, 'pubspec.yaml')))
      throw new UsageError(`--project=${project}: ${root} holds no pubspec.yaml. Name your Flutter app's folder.`)
  }
  const main = resolve(root, target ?? DEFAULT_TARGET)
  if (!main.startsWith(`${root}${sep}`))
    throw new UsageError(`--target=${target}: ${main} is outside the project ${root}. Name a file inside it, as flutter run -t takes it.`)
  return {root, pubspec: join(root, 'pubspec.yaml'), main}
}

/** How a project file is named in messages and diffs: relative to the project's folder. */
export const shownPath = (root: string, path: string): string => relative(root, path).split(sep).join('/')

/** A source file as text; one that is not UTF-8 is refused, since writing it back would change
 *  the bytes that did not decode. */
export function readSource(path: string, shown: string, missing?: string): string {
  let text: string
  try {
    text = readBoundedText(path, MAX_SOURCE_BYTES)
  } catch (error) {
    const code = errorCode(error)
    if (code === 'ENOENT' && missing !== undefined) throw new UsageError(`${shown} not found: ${missing}`)
    if (code === 'EFBIG') throw new TapirError(`Cannot read ${shown}: it is larger than ${MAX_SOURCE_BYTES / 1024 / 1024} MB.`, 'local')
    throw fileError('read', shown, error)
  }
  if (text.includes('\uFFFD') && !Buffer.from(text, 'utf8').equals(readFileSync(path)))
    throw new TapirError(`${shown} is not UTF-8 text, and tapir edits only UTF-8 files. Nothing was written.`, 'local')
  return text
}

/** A file whose lines end with a lone CR (classic Mac OS) is refused: no editor of today writes
 *  one, and the YAML reader tapir uses does not take it. */
export function refuseLoneCr(text: string, shown: string, command: string): string {
  if (/\r(?!\n)/.test(text))
    throw new TapirError(
      `${shown} ends its lines with a lone CR (classic Mac OS), which tapir does not edit: convert them to LF or CRLF, then run ${command} again. Nothing was written.`,
      'local',
    )
  return text
}

const BOM = '\uFEFF'

/** Edits a text after its byte order mark, if it has one (Windows editors write one), and
 *  puts the mark back: the parsers and the edits see the text itself. */
export async function afterBom<T extends object>(text: string, edit: (body: string) => Promise<T>): Promise<T> {
  if (!text.startsWith(BOM)) return edit(text)
  const result = await edit(text.slice(BOM.length))
  return 'text' in result && typeof result.text === 'string' ? {...result, text: BOM + result.text} : result
}

/** A file a command will rewrite: what it read, and what it writes. */
export interface FileChange {
  path: string
  shown: string
  before: string
  after: string
}

/** Why tapir would not write this file, or undefined when it may: `writeRefusal`'s reasons, and
 *  a file that changed since it was read. */
function refusal(root: string, change: FileChange, command: string): string | undefined {
  const {path, shown} = change
  const reason = writeRefusal(root, path, shown, command)
  if (reason) return reason
  let now: string
  try {
    now = readBoundedText(realpathSync(path), MAX_SOURCE_BYTES)
  } catch (error) {
    return fileError('read', shown, error).message
  }
  if (now !== change.before) return changedLine(shown, command)
  return undefined
}

const changedLine = (shown: string, command: string) => `${shown} changed while tapir worked: run ${command} again. Nothing was written.`

/** Writes every change or none: all are checked before the first is written, each is checked
 *  again at the moment of its own rename (`writeAtomic`'s `unchanged`), and if a later write
 *  fails or finds its file changed, the earlier files get their old bytes back, each only if it
 *  still holds what tapir wrote. */
export function writeChanges(root: string, changes: readonly FileChange[], command: string): void {
  for (const change of changes) {
    const reason = refusal(root, change, command)
    if (reason) throw new TapirError(reason, 'local')
  }
  const written: FileChange[] = []
  for (const change of changes) {
    try {
      writeAtomic(change.path, change.after, {unchanged: Buffer.from(change.before, 'utf8')})
      written.push(change)
    } catch (error) {
      const stuck = written.filter((done) => {
        try {
          writeAtomic(done.path, done.before, {unchanged: Buffer.from(done.after, 'utf8')})
          return false
        } catch {
          return true
        }
      })
      const changed = error instanceof FileChangedError
      const message = changed ? changedLine(change.shown, command).replace(/ Nothing was written\.$/, '') : errorText(error)
      throw new TapirError(
        stuck.length === 0
          ? `${message}${changed ? ' Nothing was written.' : '. Nothing was changed.'}`
          : `${message}${changed ? '' : '.'} ${stuck.map((done) => done.shown).join(' and ')} could not be put back as it was; \`git diff\` shows what tapir changed.`,
        'local',
      )
    }
  }
}

const errorText = (error: unknown): string => (error instanceof Error ? error.message.replace(/\.$/, '') : String(error))
