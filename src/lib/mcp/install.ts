import {existsSync, readFileSync} from 'node:fs'
import {delimiter, join} from 'node:path'
import {TapirError} from '../errors.js'
import {isJsonObject, type JsonObject} from '../shape.js'
import {writeAtomic} from '../write-atomic.js'
import {CATALOGUES, type Catalogue} from './catalogues.js'

export const CLIENTS = {
  claude: {file: '.mcp.json', key: 'mcpServers', stdioType: false},
  cursor: {file: join('.cursor', 'mcp.json'), key: 'mcpServers', stdioType: false},
  vscode: {file: join('.vscode', 'mcp.json'), key: 'servers', stdioType: true},
  gemini: {file: join('.gemini', 'settings.json'), key: 'mcpServers', stdioType: false},
} as const

export type Client = keyof typeof CLIENTS
export const CLIENT_NAMES = ['claude', 'cursor', 'vscode', 'gemini'] as const satisfies readonly Client[]
export type ServerCommand = {command: string; args: string[]}

/** `tapir mcp:serve` if this tapir is on PATH, else node with this install's bin, absolute; with
 *  `--catalogue=dusk` when the server is to serve the dusk_* tools. */
export function serverCommand(env: NodeJS.ProcessEnv, binPath: string, nodePath: string, catalogue: Catalogue = 'tapir'): ServerCommand {
  const onPath = (env.PATH ?? '').split(delimiter).some((dir) => dir !== '' && existsSync(join(dir, 'tapir')))
  const serve = catalogue === 'tapir' ? ['mcp:serve'] : ['mcp:serve', `--catalogue=${catalogue}`]
  return onPath ? {command: 'tapir', args: serve} : {command: nodePath, args: [binPath, ...serve]}
}

function readConfig(path: string, command: string): JsonObject {
  let config: unknown
  try {
    config = JSON.parse(readFileSync(path, 'utf8') || '{}')
  } catch {
    throw new TapirError(`${path} is not valid JSON; fix or remove it, then run tapir ${command} again. Nothing was written.`, 'local')
  }
  if (!isJsonObject(config)) throw new TapirError(`${path} does not hold a JSON object; nothing was written.`, 'local')
  return config
}

/** Adds or updates the `tapir` entry of one client's config file, leaving every other entry as it was. */
export function installFor(
  client: Client,
  projectRoot: string,
  server: ServerCommand,
): {path: string; change: 'added' | 'updated' | 'unchanged'} {
  const {file, key, stdioType} = CLIENTS[client]
  const path = join(projectRoot, file)
  const config = existsSync(path) ? readConfig(path, 'mcp:install') : {}
  const current = config[key]
  const servers: JsonObject = isJsonObject(current) ? current : {}
  const entry = stdioType ? {type: 'stdio', ...server} : server
  const before = servers.tapir
  if (JSON.stringify(before) === JSON.stringify(entry)) return {path, change: 'unchanged'}
  writeAtomic(path, JSON.stringify({...config, [key]: {...servers, tapir: entry}}, null, 2) + '\n')
  return {path, change: before === undefined ? 'added' : 'updated'}
}

/** Whether an entry is one `mcp:install` writes: a server started with `mcp:serve`, of either catalogue. */
const isTapirServer = (entry: unknown): boolean => {
  if (!isJsonObject(entry) || !Array.isArray(entry.args)) return false
  const args: unknown[] = entry.args
  const last = args.at(-1)
  return last === 'mcp:serve' || (args.at(-2) === 'mcp:serve' && CATALOGUES.some((catalogue) => last === `--catalogue=${catalogue}`))
}

/** Removes the `tapir` entry `mcp:install` wrote from one client's config file; every other
 *  entry and key stays, and the file keeps its mode and owner. A `tapir` entry that does not
 *  run `mcp:serve` is someone else's: it stays (`foreign`). */
export function uninstallFor(client: Client, projectRoot: string): {path: string; change: 'removed' | 'absent' | 'foreign'} {
  const {file, key} = CLIENTS[client]
  const path = join(projectRoot, file)
  if (!existsSync(path)) return {path, change: 'absent'}
  const config = readConfig(path, 'mcp:uninstall')
  const servers = config[key]
  if (!isJsonObject(servers) || !('tapir' in servers)) return {path, change: 'absent'}
  const {tapir, ...others} = servers
  if (!isTapirServer(tapir)) return {path, change: 'foreign'}
  writeAtomic(path, JSON.stringify({...config, [key]: others}, null, 2) + '\n')
  return {path, change: 'removed'}
}
