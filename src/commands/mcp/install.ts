import {fileURLToPath} from 'node:url'
import * as Flags from '@oclif/core/flags'
import type {SessionLocation} from '../../lib/session/location.js'
import type {Outcome} from '../../lib/output/outcome.js'
import type {Client} from '../../lib/mcp/install.js'
import {CLIENTS, installFor, serverCommand} from '../../lib/mcp/install.js'
import {SessionCommand} from '../session-command.js'

const BIN = fileURLToPath(new URL('../../../bin/run.js', import.meta.url))

export default class McpInstall extends SessionCommand {
  static override summary = "Register tapir's MCP server in this project's MCP config files, keeping every other server."
  static override description = `Clients: ${Object.entries(CLIENTS)
    .map(([name, client]) => `${name} (${client.file})`)
    .join(', ')}. Without --client, the project's .mcp.json (read by Claude Code) is written. Running it again changes nothing.`
  static override examples = ['<%= config.bin %> mcp:install', '<%= config.bin %> mcp:install --client=cursor', '<%= config.bin %> mcp:install --client=all']
  static override flags = {
    client: Flags.string({description: 'Which client to configure.', options: [...Object.keys(CLIENTS), 'all'], default: 'claude'}),
  }

  protected async sessionOutcome(flags: Record<string, unknown>, location: SessionLocation): Promise<Outcome> {
    const clients = (flags.client === 'all' ? Object.keys(CLIENTS) : [flags.client]) as Client[]
    const server = serverCommand(process.env, BIN, process.execPath)
    const lines = clients.map((client) => {
      const {path, change} = installFor(client, location.projectRoot, server)
      return change === 'unchanged' ? `✓ ${path} already runs tapir` : `✓ ${path}: tapir ${change}`
    })
    return {stdout: lines.join('\n'), stderr: [], exitCode: 0}
  }
}
