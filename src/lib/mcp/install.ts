import {existsSync, realpathSync, rmdirSync, unlinkSync} from 'node:fs'
import {basename, delimiter, dirname, join, resolve} from 'node:path'
import {TapirError} from '../errors.js'
import {isJsonObject} from '../shape.js'
import {readUserFile, writeRefusal} from '../user-file.js'
import {FileChangedError, fileError, writeAtomic} from '../write-atomic.js'
import {CATALOGUES, type Catalogue} from './catalogues.js'
import type {ConfigText} from './config-edit.js'
import {ConfigRefusal, entryValue, readConfigText, withEntry, withoutEntry} from './config-edit.js'
import type {Dialect} from './json-text.js'

const STRICT: Dialect = {comments: false, trailingCommas: false}

/** Each client's project config, the key of its servers, and the JSON its reader takes: VS Code
 *  reads `.vscode/mcp.json` as JSONC, Gemini CLI strips comments from settings.json, and the
 *  readers of `.mcp.json` parse plain JSON (docs/user-files.md has the sources). */
export const CLIENTS = {
  claude: {file: '.mcp.json', key: 'mcpServers', stdioType: false, dialect: STRICT},
  cursor: {file: join('.cursor', 'mcp.json'), key: 'mcpServers', stdioType: false, dialect: STRICT},
  vscode: {file: join('.vscode', 'mcp.json'), key: 'servers', stdioType: true, dialect: {comments: true, trailingCommas: true}},
  gemini: {file: join('.gemini', 'settings.json'), key: 'mcpServers', stdioType: false, dialect: {comments: true, trailingCommas: false}},
} as const satisfies Record<string, {file: string; key: string; stdioType: boolean; dialect: Dialect}>

export type Client = keyof typeof CLIENTS
export const CLIENT_NAMES = ['claude', 'cursor', 'vscode', 'gemini'] as const satisfies readonly Client[]
export type ServerCommand = {command: string; args: string[]}

/** A config file is settings, not data: a few megabytes at most. */
const MAX_CONFIG_BYTES = 4 * 1024 * 1024

/** `tapir mcp:serve` if this tapir is on PATH, else node with this install's bin, absolute; with
 *  `--catalogue=dusk` when the server is to serve the dusk_* tools. */
export function serverCommand(env: NodeJS.ProcessEnv, binPath: string, nodePath: string, catalogue: Catalogue = 'tapir'): ServerCommand {
  const onPath = (env.PATH ?? '').split(delimiter).some((dir) => dir !== '' && existsSync(join(dir, 'tapir')))
  const serve = catalogue === 'tapir' ? ['mcp:serve'] : ['mcp:serve', `--catalogue=${catalogue}`]
  return onPath ? {command: 'tapir', args: serve} : {command: nodePath, args: [binPath, ...serve]}
}

/** One client's config as read: its bytes (undefined when missing) and its text. */
interface Loaded {
  path: string
  bytes: Buffer | undefined
  config: ConfigText
}

function load(client: Client, projectRoot: string, command: string): Loaded {
  const {file, key, dialect} = CLIENTS[client]
  const path = join(projectRoot, file)
  const bytes = readUserFile(path, path, MAX_CONFIG_BYTES)
  try {
    return {path, bytes, config: readConfigText(bytes ?? Buffer.alloc(0), key, dialect)}
  } catch (error) {
    if (error instanceof ConfigRefusal)
      throw new TapirError(`${path} ${error.message}; fix or remove it, then run tapir ${command} again. Nothing was written.`, 'local')
    throw error
  }
}

/** Why a config cannot be written, checked before any file is (so `--client=all` writes all or none). */
function refuseUnwritable(projectRoot: string, loaded: Loaded, command: string): void {
  const reason = writeRefusal(projectRoot, loaded.path, loaded.path, `tapir ${command}`)
  if (reason) throw new TapirError(reason, 'local')
}

/** Writes a config's new text, only if the file still holds what was read when it is replaced. */
function save(projectRoot: string, loaded: Loaded, text: string, command: string): void {
  refuseUnwritable(projectRoot, loaded, command)
  try {
    writeAtomic(loaded.path, Buffer.from(text, 'latin1'), {unchanged: loaded.bytes ?? null})
  } catch (error) {
    if (error instanceof FileChangedError)
      throw new TapirError(`${loaded.path} changed while tapir worked: run tapir ${command} again. Nothing was written.`, 'local')
    throw error
  }
}

/** The folders above `path` that do not exist yet, deepest first. */
function missingFolders(path: string): string[] {
  const missing: string[] = []
  for (let folder = dirname(path); !existsSync(folder) && dirname(folder) !== folder; folder = dirname(folder)) missing.push(folder)
  return missing
}

/** Puts back what `save` replaced: the bytes read, or no file (and no folder it made) when there
 *  was none; only while the file still holds what tapir wrote. */
function restore(loaded: Loaded, text: string, madeFolders: readonly string[]): void {
  const written = Buffer.from(text, 'latin1')
  if (loaded.bytes !== undefined) {
    writeAtomic(loaded.path, loaded.bytes, {unchanged: written})
    return
  }
  if (!readUserFile(loaded.path, loaded.path, MAX_CONFIG_BYTES)?.equals(written)) throw new FileChangedError(loaded.path)
  unlinkSync(loaded.path)
  for (const folder of madeFolders)
    try {
      rmdirSync(folder)
    } catch {
      // something else is in it now: it stays
    }
}

/** Whether two paths name one file (through links where both exist). */
function samePath(a: string, b: string): boolean {
  try {
    return realpathSync(a) === realpathSync(b)
  } catch {
    return resolve(a) === resolve(b)
  }
}

/** Whether an entry is one `mcp:install` of this tapir writes: `command` and `args` (and VS Code's
 *  `type`) and nothing else, and the command is this tapir (`tapir` on PATH, or a node running this
 *  install's `bin`) started with `mcp:serve`, of either catalogue. Any other command that ends in
 *  `mcp:serve` (a container, a fork) is the user's. */
export function isTapirServer(entry: unknown, binPath: string): boolean {
  if (!isJsonObject(entry) || !Array.isArray(entry.args) || typeof entry.command !== 'string') return false
  if (Object.keys(entry).some((name) => name !== 'command' && name !== 'args' && name !== 'type')) return false
  if (entry.type !== undefined && entry.type !== 'stdio') return false
  const args: unknown[] = entry.args
  if (!args.every((arg) => typeof arg === 'string')) return false
  const last = args.at(-1)
  const before =
    last === 'mcp:serve'
      ? args.slice(0, -1)
      : args.at(-2) === 'mcp:serve' && CATALOGUES.some((catalogue) => last === `--catalogue=${catalogue}`)
        ? args.slice(0, -2)
        : undefined
  if (before === undefined) return false
  if (entry.command === 'tapir') return before.length === 0
  return before.length === 1 && NODE.test(basename(entry.command)) && samePath(before[0] as string, binPath)
}

/** What a node executable is called (`node`, Debian's `nodejs`, `node.exe`). */
const NODE = /^node(js)?(\.exe)?$/i

export type InstallChange = 'added' | 'updated' | 'unchanged' | 'replaced'

/** What installing would do to one client's file, checked (its writability too) and not yet written. */
export interface PlannedInstall {
  client: Client
  path: string
  change: InstallChange
  write(): void
  /** Puts the file back as it was before `write` (throws when it cannot). */
  undo(): void
}

const withoutNothingWritten = (error: unknown): string =>
  (error instanceof Error ? error.message : String(error)).replace(/ Nothing was written\.$/, '')

/** Writes every planned file, or none: when one write fails, those written before it are put back.
 *  What could not be put back is named in the error, so it never says "Nothing was written" of a
 *  file that was. */
export function writeAll(plans: readonly PlannedInstall[]): void {
  const done: PlannedInstall[] = []
  for (const plan of plans) {
    try {
      plan.write()
    } catch (error) {
      const kept: string[] = []
      for (const earlier of done.reverse())
        try {
          earlier.undo()
        } catch (undoError) {
          const why =
            undoError instanceof FileChangedError
              ? 'it was edited since'
              : withoutNothingWritten(fileError('restore', earlier.path, undoError))
          kept.push(`${earlier.path} (tapir ${earlier.change}; not put back: ${why})`)
        }
      if (kept.length === 0) throw error
      throw new TapirError(`${withoutNothingWritten(error)} Already written and left so: ${kept.join('; ')}.`, 'local')
    }
    done.push(plan)
  }
}

/** Plans adding or updating the `tapir` entry of one client's config file. A `tapir` entry that
 *  mcp:install did not write (another command, more settings) is refused unless `force`. */
export function planInstall(client: Client, projectRoot: string, server: ServerCommand, binPath: string, force = false): PlannedInstall {
  const {key, stdioType} = CLIENTS[client]
  const loaded = load(client, projectRoot, 'mcp:install')
  const entry = stdioType ? {type: 'stdio', ...server} : server
  const before = entryValue(loaded.config)
  const planned = (change: InstallChange, write: () => void, undo: () => void) => ({client, path: loaded.path, change, write, undo})
  if (JSON.stringify(before) === JSON.stringify(entry))
    return planned(
      'unchanged',
      () => undefined,
      () => undefined,
    )
  const ours = isTapirServer(before, binPath)
  if (before !== undefined && !ours && !force)
    throw new TapirError(
      `${loaded.path} has a tapir entry that mcp:install did not write (it runs ${JSON.stringify(isJsonObject(before) ? before.command : before)}); it is left as it is. Run tapir mcp:install --force to replace it. Nothing was written.`,
      'local',
    )
  refuseUnwritable(projectRoot, loaded, 'mcp:install')
  const text = withEntry(loaded.config, key, entry)
  const change = before === undefined ? 'added' : ours ? 'updated' : 'replaced'
  let madeFolders: string[] = []
  return planned(
    change,
    () => {
      madeFolders = missingFolders(loaded.path)
      save(projectRoot, loaded, text, 'mcp:install')
    },
    () => restore(loaded, text, madeFolders),
  )
}

/** Removes the `tapir` entry `mcp:install` wrote from one client's config file; every other byte
 *  stays, and the file keeps its mode and owner. A `tapir` entry mcp:install did not write is
 *  someone else's: it stays (`foreign`). */
export function uninstallFor(
  client: Client,
  projectRoot: string,
  binPath: string,
): {path: string; change: 'removed' | 'absent' | 'foreign'} {
  const loaded = load(client, projectRoot, 'mcp:uninstall')
  if (!loaded.config.tapir) return {path: loaded.path, change: 'absent'}
  if (!isTapirServer(entryValue(loaded.config), binPath)) return {path: loaded.path, change: 'foreign'}
  let text: string
  try {
    text = withoutEntry(loaded.config)
  } catch (error) {
    if (error instanceof ConfigRefusal)
      throw new TapirError(`${loaded.path} ${error.message}, then run tapir mcp:uninstall again. Nothing was written.`, 'local')
    throw error
  }
  save(projectRoot, loaded, text, 'mcp:uninstall')
  return {path: loaded.path, change: 'removed'}
}
