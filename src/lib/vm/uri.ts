import {UsageError} from '../errors.js'

const EXPECTED = 'Use the address flutter run prints, http://127.0.0.1:<port>/<token>/ (or its ws:// form ending in /ws).'

/**
 * Turns any VM Service address a user can copy (`http://h:p/TOKEN=/`, `ws://h:p/TOKEN=/ws`,
 * with or without the trailing slash or `/ws`) into the WebSocket URI `ws://h:p/TOKEN=/ws`.
 * A refused input is never echoed: it may hold the token.
 */
export function toWebSocketUri(input: string): string {
  let url: URL
  try {
    url = new URL(input.trim())
  } catch {
    throw new UsageError(`Not a VM Service URI. ${EXPECTED}`)
  }
  const scheme = {'http:': 'ws:', 'https:': 'wss:', 'ws:': 'ws:', 'wss:': 'wss:'}[url.protocol]
  if (!scheme || !url.host) throw new UsageError(`Not a VM Service URI (scheme ${url.protocol}). ${EXPECTED}`)
  let path = url.pathname.replace(/\/+$/, '')
  if (!path.endsWith('/ws')) path += '/ws'
  return `${scheme}//${url.host}${path}`
}
