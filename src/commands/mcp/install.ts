import {fileURLToPath} from 'node:url'
import {defineCommand} from '../../lib/commands/types.js'
import {CATALOGUES} from '../../lib/mcp/catalogues.js'
import type {Client} from '../../lib/mcp/install.js'
import {CLIENT_NAMES, CLIENTS, planInstall, serverCommand, writeAll} from '../../lib/mcp/install.js'
import type {Outcome} from '../../lib/output/outcome.js'
import {linesOutcome} from '../../lib/output/outcome.js'
import {findProjectRoot} from '../../lib/session/project-root.js'

const BIN = fileURLToPath(new URL('../../../bin/run.cjs', import.meta.url))

export const MCP_INSTALL = defineCommand({
  id: 'mcp:install',
  summary: "Register tapir's MCP server in this project's MCP config files, keeping every other server.",
  description: `Clients: ${Object.entries(CLIENTS)
    .map(([name, client]) => `${name} (${client.file})`)
    .join(
      ', ',
    )}. Without --client, the project's .mcp.json (read by Claude Code) is written. Only the tapir entry's text is added or changed; every other byte of the file stays. Running it again changes nothing.`,
  examples: [
    '<%= config.bin %> mcp:install',
    '<%= config.bin %> mcp:install --client=cursor',
    '<%= config.bin %> mcp:install --client=all',
    '<%= config.bin %> mcp:install --catalogue=dusk',
  ],
  params: [
    {name: 'client', type: 'string', description: 'Which client to configure.', options: [...CLIENT_NAMES, 'all'], default: 'claude'},
    {
      name: 'catalogue',
      type: 'string',
      options: CATALOGUES,
      default: 'tapir',
      description: 'Which tools the registered server serves: tapir (tapir_*) or dusk (the dusk_* tools of Dusk 0.0.1).',
    },
    {
      name: 'force',
      type: 'boolean',
      default: false,
      description: 'Replace a tapir entry that mcp:install did not write (another command or settings).',
    },
    {name: 'json', type: 'boolean', default: false, description: 'Print what was written as JSON.'},
  ],
  globals: 'none',
  session: 'none',
  async run(flags): Promise<Outcome> {
    const clients: readonly Client[] = flags.client === 'all' ? CLIENT_NAMES : [flags.client]
    const server = serverCommand(process.env, BIN, process.execPath, flags.catalogue)
    const root = findProjectRoot(process.cwd())
    // Every file is checked before the first is written; a write that still fails puts the others back.
    const plans = clients.map((client) => planInstall(client, root, server, BIN, flags.force))
    writeAll(plans)
    const written = plans.map(({client, path, change}) => ({client, path, change}))
    const lines = written.map(({path, change}) => (change === 'unchanged' ? `✓ ${path} already runs tapir` : `✓ ${path}: tapir ${change}`))
    return linesOutcome(lines, {server, files: written}, flags.json)
  },
})
