import {Client} from '@modelcontextprotocol/sdk/client/index.js'
import {StdioClientTransport} from '@modelcontextprotocol/sdk/client/stdio.js'
import {BIN} from './cli.js'

/** The real MCP SDK client, connected over stdio to `tapir mcp:serve` on a session file. */
export async function mcpClient(state: string): Promise<Client> {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [BIN, 'mcp:serve', '--state', state],
    env: {...process.env, NODE_ENV: 'production'} as Record<string, string>,
    stderr: 'pipe',
  })
  const client = new Client({name: 'tapir-test', version: '0.0.0'})
  await client.connect(transport)
  return client
}
