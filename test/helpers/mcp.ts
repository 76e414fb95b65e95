import {Client} from '@modelcontextprotocol/sdk/client/index.js'
import {StdioClientTransport} from '@modelcontextprotocol/sdk/client/stdio.js'
import {BIN} from './cli.js'
import {CLI_WORDS} from './mcp-words.js'

/** tapir_run's steps are lines in the CLI's syntax, so what it answers about them speaks the CLI. */
const SPEAKS_CLI = new Set(['tapir_run'])

/** tapir's own words in an answer: an error's message (its text and the error object's), or a
 *  text that is not the app's JSON. What the app itself said (an envelope, a snapshot) is not tapir's. */
function ownWords(result: Record<string, unknown>): string[] {
  const content = Array.isArray(result.content) ? (result.content as Array<{type?: string; text?: string}>) : []
  const text = content.find((part) => part.type === 'text')?.text ?? ''
  if (result.isError) {
    const lines = text.split('\n')
    try {
      const object = JSON.parse(lines.at(-1)!) as {error?: {message?: string}}
      return [lines.slice(0, -1).join('\n'), object.error?.message ?? '']
    } catch {
      return [text]
    }
  }
  try {
    JSON.parse(text)
    return []
  } catch {
    return [text]
  }
}

/** The MCP SDK's client, failing any call whose answer words a parameter or a tool as the CLI
 *  does (`--ref`, `tapir:snap`) instead of as MCP does (`ref`, `tapir_snap`). Every MCP test
 *  uses it, so every text those tests produce is checked. */
export class McpTestClient extends Client {
  constructor() {
    super({name: 'tapir-test', version: '0.0.0'})
  }

  override async callTool(...args: Parameters<Client['callTool']>): ReturnType<Client['callTool']> {
    const result = await super.callTool(...args)
    if (!SPEAKS_CLI.has(args[0].name))
      for (const words of ownWords(result))
        if (CLI_WORDS.test(words)) throw new Error(`${args[0].name} answered in the CLI's words: ${words}`)
    return result
  }
}

/** The real MCP SDK client, connected over stdio to `tapir mcp:serve` on a session file (with
 *  `serveArgs` after it, e.g. `--catalogue=dusk`). */
export async function mcpClient(state: string, serveArgs: readonly string[] = []): Promise<Client> {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [BIN, 'mcp:serve', '--state', state, ...serveArgs],
    env: {...process.env, NODE_ENV: 'production'} as Record<string, string>,
    stderr: 'pipe',
  })
  const client = new McpTestClient()
  await client.connect(transport)
  return client
}

/** The same, run in a project folder as a user's agent runs it: `tapir mcp:serve` there, with the
 *  project's environment (and `extra` on top), on the session of that folder. */
export async function mcpClientIn(
  project: {dir: {path: string}; env(extra?: Record<string, string>): Record<string, string>},
  extra: Record<string, string> = {},
): Promise<McpTestClient> {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [BIN, 'mcp:serve'],
    cwd: project.dir.path,
    env: project.env(extra),
    stderr: 'pipe',
  })
  const client = new McpTestClient()
  await client.connect(transport)
  return client
}
