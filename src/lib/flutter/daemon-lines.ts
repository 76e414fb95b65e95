/** One message of the `flutter run --machine` daemon: an event, or the reply to a request. */
export type DaemonReply = {id: number; result?: unknown; error?: unknown}
export type DaemonMessage = {event: string; params: Record<string, unknown>} | DaemonReply

/** Every daemon message is one line holding a JSON array of one object; anything else is stray
 *  output (build tools, the app's own prints) and is not a message. */
export function parseDaemonLine(line: string): DaemonMessage | undefined {
  const text = line.trim()
  if (!text.startsWith('[{') || !text.endsWith('}]')) return undefined
  try {
    const [message] = JSON.parse(text) as unknown[]
    if (message === null || typeof message !== 'object') return undefined
    const record = message as Record<string, unknown>
    if (typeof record.event === 'string') return {event: record.event, params: isObject(record.params) ? record.params : {}}
    if (typeof record.id === 'number') return {id: record.id, result: record.result, error: record.error}
  } catch {
    // not JSON after all: stray output
  }
  return undefined
}

/** A request for the daemon's stdin. */
export function requestLine(id: number, method: string, params: Record<string, unknown>): string {
  return `${JSON.stringify([{id, method, params}])}\n`
}

function isObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value)
}
