import {UsageError} from '../errors.js'

/**
 * Turns any VM Service address a user can copy (`http://h:p/TOKEN=/`, `ws://h:p/TOKEN=/ws`,
 * with or without the trailing slash or `/ws`) into the WebSocket URI `ws://h:p/TOKEN=/ws`.
 */
export function toWebSocketUri(input: string): string {
  const text = input.trim()
  let url: URL
  try {
    url = new URL(text)
  } catch {
    throw new UsageError(`Not a VM Service URI: "${redactToken(text)}". Expected http://127.0.0.1:<port>/<token>=/ or ws://127.0.0.1:<port>/<token>=/ws.`)
  }
  const scheme = {'http:': 'ws:', 'https:': 'wss:', 'ws:': 'ws:', 'wss:': 'wss:'}[url.protocol]
  if (!scheme || !url.host) {
    throw new UsageError(`Not a VM Service URI: "${redactToken(text)}". Use the http:// or ws:// address flutter run prints.`)
  }
  let path = url.pathname.replace(/\/+$/, '')
  if (!path.endsWith('/ws')) path += '/ws'
  return `${scheme}//${url.host}${path}`
}

/** Hides the auth token (the first path segment) of a VM Service URI anywhere in a text. */
export function redactToken(text: string): string {
  return text.replace(/\b([a-z][a-z0-9+.-]*:\/\/[^/\s"']+\/)([^/\s"']+)/g, (_match, origin: string, segment: string) =>
    segment === 'ws' ? `${origin}${segment}` : `${origin}***`,
  )
}
