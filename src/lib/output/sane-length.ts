/** The most of one line tapir shows. App and browser text reaches errors and warnings verbatim
 *  (an exception, a refusal, a label), and may be megabytes long. */
export const MAX_LINE_CHARS = 1000
/** The most of one printed line: an app's text cut to MAX_LINE_CHARS, with room for what tapir
 *  adds around it (the mark, what to try next, escapes of control characters). */
export const MAX_PRINTED_LINE_CHARS = 2 * MAX_LINE_CHARS
/** The most lines one message shows (a file with a problem on every line is still read). */
export const MAX_LINES = 200

/** `line` cut to `max` characters, saying how much was left out; a surrogate pair is never split. */
export function cutLine(line: string, max = MAX_LINE_CHARS): string {
  if (line.length <= max) return line
  let end = max
  const last = line.charCodeAt(end - 1)
  if (last >= 0xd800 && last <= 0xdbff) end--
  return `${line.slice(0, end)}… (${line.length - end} more characters)`
}

/** A message with every line cut, and at most MAX_LINES of them. */
export function cutMessage(message: string): string {
  const lines = message.split('\n')
  const kept = lines.slice(0, MAX_LINES).map((line) => cutLine(line))
  if (lines.length > MAX_LINES) kept.push(`… (${lines.length - MAX_LINES} more lines)`)
  return kept.join('\n')
}
