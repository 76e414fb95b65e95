export function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}

/** A JSON value's kind, for a message about an answer of the wrong shape. Never its content:
 *  the answer may be anything an endpoint chose to send. */
export function kindOf(value: unknown): string {
  if (value === undefined) return 'nothing'
  if (value === null) return 'null'
  if (Array.isArray(value)) return 'a list'
  if (typeof value === 'object') return 'a JSON object'
  return `a ${typeof value}`
}
