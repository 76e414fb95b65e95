/** One replacement of `text.slice(start, end)` by `insert`. */
export interface TextEdit {
  start: number
  end: number
  insert: string
}

/** Applies edits that do not overlap, whatever their order. */
export function applyEdits(text: string, edits: readonly TextEdit[]): string {
  const sorted = [...edits].sort((a, b) => b.start - a.start)
  let result = text
  let limit = Infinity
  for (const edit of sorted) {
    if (edit.end > limit) throw new Error(`overlapping edits at ${edit.start}`)
    result = result.slice(0, edit.start) + edit.insert + result.slice(edit.end)
    limit = edit.start
  }
  return result
}

/** The line ending a file uses: CRLF when it has any, else LF. */
export const lineEnding = (text: string): string => (text.includes('\r\n') ? '\r\n' : '\n')

export const lineStart = (text: string, offset: number): number => text.lastIndexOf('\n', offset - 1) + 1

/** The offset just past the line's terminator (the text's end on its last line). */
export function nextLineStart(text: string, offset: number): number {
  const newline = text.indexOf('\n', offset)
  return newline === -1 ? text.length : newline + 1
}

/** The whitespace a line starts with. */
export function indentationAt(text: string, offset: number): string {
  const start = lineStart(text, offset)
  return /^[ \t]*/.exec(text.slice(start))?.[0] ?? ''
}

/** Whether only spaces and tabs stand between the line's start and `offset`. */
export const startsItsLine = (text: string, offset: number): boolean => /^[ \t]*$/.test(text.slice(lineStart(text, offset), offset))

/** Whether only spaces, tabs and the line's terminator follow `offset` on its line. */
export const endsItsLine = (text: string, offset: number): boolean => /^[ \t]*\r?(\n|$)/.test(text.slice(offset))

/** An edit removing the whole lines from the one holding `start` to the one holding `end`,
 *  terminator included (or the terminator before them, on the text's last line). */
export function removeLines(text: string, start: number, end: number): TextEdit {
  const from = lineStart(text, start)
  const to = nextLineStart(text, end)
  if (to === text.length && !text.endsWith('\n') && from > 0) {
    const before = text[from - 2] === '\r' ? 2 : 1
    return {start: from - before, end: to, insert: ''}
  }
  return {start: from, end: to, insert: ''}
}

/** 1-based line and column of an offset, for messages. */
export function position(text: string, offset: number): {line: number; column: number} {
  const before = text.slice(0, offset)
  const line = before.split('\n').length
  return {line, column: offset - lineStart(text, offset) + 1}
}
