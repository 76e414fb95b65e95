import {fileURLToPath} from 'node:url'
import {defineCommand} from '../../lib/commands/types.js'
import type {Client} from '../../lib/mcp/install.js'
import {CLIENT_NAMES, CLIENTS, uninstallFor} from '../../lib/mcp/install.js'
import type {Outcome} from '../../lib/output/outcome.js'
import {linesOutcome} from '../../lib/output/outcome.js'
import {findProjectRoot} from '../../lib/session/project-root.js'

const BIN = fileURLToPath(new URL('../../../bin/run.cjs', import.meta.url))

const LINES = {
  removed: (path: string) => `✓ ${path}: tapir removed`,
  absent: (path: string) => `✓ ${path} has no tapir entry: nothing to remove`,
  foreign: (path: string) => `⚠ ${path}: its tapir entry is not one mcp:install writes (another command or more settings); left as it is`,
}

export const MCP_UNINSTALL = defineCommand({
  id: 'mcp:uninstall',
  summary: "Remove tapir's MCP server from this project's MCP config files, keeping everything else in them.",
  description: `Clients: ${Object.entries(CLIENTS)
    .map(([name, client]) => `${name} (${client.file})`)
    .join(', ')}. Removes the tapir entry mcp:install wrote; the other servers and settings stay, and the file keeps its mode and owner.`,
  examples: ['<%= config.bin %> mcp:uninstall', '<%= config.bin %> mcp:uninstall --client=all'],
  params: [
    {name: 'client', type: 'string', description: 'Which client to unconfigure.', options: [...CLIENT_NAMES, 'all'], default: 'claude'},
    {name: 'json', type: 'boolean', default: false, description: 'Print what was changed as JSON.'},
  ],
  globals: 'none',
  session: 'none',
  async run(flags): Promise<Outcome> {
    const clients: readonly Client[] = flags.client === 'all' ? CLIENT_NAMES : [flags.client]
    const root = findProjectRoot(process.cwd())
    const files = clients.map((client) => ({client, ...uninstallFor(client, root, BIN)}))
    return linesOutcome(
      files.map(({path, change}) => LINES[change](path)),
      {files},
      flags.json,
    )
  },
})
