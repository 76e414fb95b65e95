/** The most of one line tapir shows. App and browser text reaches errors and warnings verbatim
 *  (an exception, a refusal, a label), and may be megabytes long. */
export const MAX_LINE_CHARS = 1000
/** The most lines one message shows (a file with a problem on every line is still read). */
export const MAX_LINES = 200

/** `line` cut to MAX_LINE_CHARS, saying how much was left out; a surrogate pair is never split. */
export function cutLine(line: string): string {
  if (line.length <= MAX_LINE_CHARS) return line
  let end = MAX_LINE_CHARS
  const last = line.charCodeAt(end - 1)
  if (last >= 0xd800 && last <= 0xdbff) end--
  return `${line.slice(0, end)}… (${line.length - end} more characters)`
}

/** A message with every line cut, and at most MAX_LINES of them. */
export function cutMessage(message: string): string {
  const lines = message.split('\n')
  const kept = lines.slice(0, MAX_LINES).map(cutLine)
  if (lines.length > MAX_LINES) kept.push(`… (${lines.length - MAX_LINES} more lines)`)
  return kept.join('\n')
}
