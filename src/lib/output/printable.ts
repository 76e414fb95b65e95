import {redactToken} from './redact-token.js'
import {terminalSafe} from './terminal-safe.js'

/** What tapir may show of a text, on a terminal, in a pipe or to an MCP client: the VM Service
 *  token hidden, control characters escaped. */
export function printable(text: string, singleLine = false): string {
  return terminalSafe(redactToken(text), singleLine)
}
