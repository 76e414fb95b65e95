/** C0 controls other than tab and newline, DEL, and C1 controls (U+0080–U+009F, which some
 *  terminals read as ESC sequences: U+009B is CSI, U+009D starts an OSC title). */
// eslint-disable-next-line no-control-regex -- finding control characters is what this file is for
const CONTROLS = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/g
// eslint-disable-next-line no-control-regex -- as above
const CONTROLS_AND_NEWLINE = /[\u0000-\u0008\u000a-\u001f\u007f-\u009f]/g

function escape(char: string): string {
  if (char === '\n') return '\\n'
  if (char === '\r') return '\\r'
  return `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`
}

/**
 * Text as it may reach a terminal: every control character becomes its JSON escape (`\u001b`),
 * so an app's label cannot set the title, clear the screen or overwrite a line. JSON text stays
 * exact: JSON.stringify already escapes C0, and a raw C1 or DEL can only sit inside a string
 * literal, where its escape reads back as the same character. `singleLine` also escapes
 * newlines, for a line that must stay one line (a `✗` error).
 */
export function terminalSafe(text: string, singleLine = false): string {
  return text.replace(singleLine ? CONTROLS_AND_NEWLINE : CONTROLS, escape)
}
