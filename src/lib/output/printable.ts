import {redactToken} from './redact-token.js'
import {cutLine, MAX_PRINTED_LINE_CHARS} from './sane-length.js'
import {terminalSafe} from './terminal-safe.js'

/** What tapir may show of a text, on a terminal, in a pipe or to an MCP client: the VM Service
 *  token hidden, control characters escaped, and a single line (an error, a warning, a progress
 *  line: where app and browser text lands) cut to a sane length. A result (a snapshot, the app's
 *  JSON) is shown whole. */
export function printable(text: string, singleLine = false): string {
  const safe = terminalSafe(redactToken(text), singleLine)
  return singleLine ? cutLine(safe, MAX_PRINTED_LINE_CHARS) : safe
}
