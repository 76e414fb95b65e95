import {fileURLToPath} from 'node:url'
import {Command} from '@oclif/core/command'
import * as Flags from '@oclif/core/flags'
import type {Client} from '../../lib/mcp/install.js'
import {CLIENT_NAMES, CLIENTS, uninstallFor} from '../../lib/mcp/install.js'
import type {Outcome} from '../../lib/output/outcome.js'
import {failureOutcome, linesOutcome} from '../../lib/output/outcome.js'
import {printOutcome} from '../../lib/output/print.js'
import {findProjectRoot} from '../../lib/session/project-root.js'
import {parseFailure} from '../../oclif/tapir-command.js'

const BIN = fileURLToPath(new URL('../../../bin/run.cjs', import.meta.url))

const LINES = {
  removed: (path: string) => `✓ ${path}: tapir removed`,
  absent: (path: string) => `✓ ${path} has no tapir entry: nothing to remove`,
  foreign: (path: string) => `⚠ ${path}: its tapir entry is not one mcp:install writes (another command or more settings); left as it is`,
}

export default class McpUninstall extends Command {
  static override summary = "Remove tapir's MCP server from this project's MCP config files, keeping everything else in them."
  static override description = `Clients: ${Object.entries(CLIENTS)
    .map(([name, client]) => `${name} (${client.file})`)
    .join(', ')}. Removes the tapir entry mcp:install wrote; the other servers and settings stay, and the file keeps its mode and owner.`
  static override examples = ['<%= config.bin %> mcp:uninstall', '<%= config.bin %> mcp:uninstall --client=all']
  static override flags = {
    client: Flags.option({description: 'Which client to unconfigure.', options: [...CLIENT_NAMES, 'all'] as const, default: 'claude'})(),
    json: Flags.boolean({description: 'Print what was changed as JSON.'}),
  }

  override async run(): Promise<void> {
    await printOutcome(await this.uninstall())
  }

  private async uninstall(): Promise<Outcome> {
    const json = this.argv.includes('--json')
    try {
      const {flags} = await this.parse(McpUninstall).catch((error) => {
        throw parseFailure(error, this.id)
      })
      const clients: readonly Client[] = flags.client === 'all' ? CLIENT_NAMES : [flags.client]
      const root = findProjectRoot(process.cwd())
      const files = clients.map((client) => ({client, ...uninstallFor(client, root, BIN)}))
      return linesOutcome(
        files.map(({path, change}) => LINES[change](path)),
        {files},
        json,
      )
    } catch (error) {
      return failureOutcome(error, json)
    }
  }
}
