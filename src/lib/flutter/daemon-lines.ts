import {isJsonObject} from '../shape.js'

/** One message of the `flutter run --machine` daemon: an event, or the reply to a request. */
export type DaemonReply = {id: number; result?: unknown; error?: unknown}
export type DaemonMessage = {event: string; params: Record<string, unknown>} | DaemonReply

/** Every daemon message is one line holding a JSON array of one object; anything else is stray
 *  output (build tools, the app's own prints) and is not a message. */
export function parseDaemonLine(line: string): DaemonMessage | undefined {
  const text = line.trim()
  if (!text.startsWith('[{') || !text.endsWith('}]')) return undefined
  let value: unknown
  try {
    value = JSON.parse(text)
  } catch {
    return undefined // not JSON after all: stray output
  }
  const message: unknown = Array.isArray(value) ? value[0] : undefined
  if (!isJsonObject(message)) return undefined
  if (typeof message.event === 'string') return {event: message.event, params: isJsonObject(message.params) ? message.params : {}}
  if (typeof message.id === 'number') return {id: message.id, result: message.result, error: message.error}
  return undefined
}

/** A request for the daemon's stdin. */
export function requestLine(id: number, method: string, params: Record<string, unknown>): string {
  return `${JSON.stringify([{id, method, params}])}\n`
}
