/** The kind of a JSON value in a message's words: `nothing`, `null`, `a list`, `an object`,
 *  `a string`, `a number`, `a boolean`. Never its content, which may be anything a file or an
 *  endpoint chose to send. */
export function jsonKind(value: unknown): string {
  if (value === undefined) return 'nothing'
  if (value === null) return 'null'
  if (Array.isArray(value)) return 'a list'
  return typeof value === 'object' ? 'an object' : `a ${typeof value}`
}
