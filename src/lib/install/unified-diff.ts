import {createTwoFilesPatch} from 'diff'

/** The unified diff of one file, git-style (`--- a/<file>`, `+++ b/<file>`, three lines of
 *  context); CRLF files read as LF here, so no `\r` clutters the terminal. */
export function unifiedDiff(shown: string, before: string, after: string): string {
  const patch = createTwoFilesPatch(`a/${shown}`, `b/${shown}`, before, after, undefined, undefined, {context: 3})
  return patch
    .replace(/^=+\n/, '')
    .replace(/\r(?=\n)/g, '')
    .replace(/\n$/, '')
}
