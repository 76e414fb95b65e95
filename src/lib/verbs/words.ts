import {CLI_WORDS, mcpWords, type Surface, type Words} from '../errors.js'
import {verbNamed} from './index.js'

/** How each surface words a message: over MCP a verb is named by its tool, as its definition
 *  says (`wait` is `tapir_wait_for`); a command the catalogue lacks is `tapir_<name>`. */
export const WORDS: Readonly<Record<Surface, Words>> = {
  cli: CLI_WORDS,
  mcp: mcpWords((name) => verbNamed(name)?.tool ?? `tapir_${name}`),
}
