/** What Dart's `toString()` prints for a decoded JSON value: the VM service isolate applies it to
 *  every non-string parameter before an isolate sees it (`true` → `"true"`, `["x"]` → `"[x]"`). */
export function dartToString(value: unknown): string {
  if (typeof value === 'string') return value
  if (value === null || value === undefined) return 'null'
  if (Array.isArray(value)) return `[${value.map(dartToString).join(', ')}]`
  if (typeof value === 'object') {
    const entries = Object.entries(value).map(([key, item]) => `${key}: ${dartToString(item)}`)
    return `{${entries.join(', ')}}`
  }
  return String(value)
}

/** The JSON type name of a value, as a client would recognise it in a complaint. */
export function jsonTypeOf(value: unknown): string {
  if (value === null) return 'null'
  if (Array.isArray(value)) return 'array'
  return typeof value === 'object' ? 'object' : typeof value
}
