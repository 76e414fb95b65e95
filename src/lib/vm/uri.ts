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

/** Hides the auth token of any VM Service URI in a text: the first path segment when it has a
 *  token's shape (base64url ending in `=`) or is followed by `/ws`. */
export function redactToken(text: string): string {
  return text.replace(/\b([a-z][a-z0-9+.-]*:\/\/[^/\s"']+\/)([^/\s"']+)(?=(\/[^\s"']*)?)/g, (match, origin: string, segment: string, rest: string | undefined) =>
    /^[A-Za-z0-9_-]+={1,2}$/.test(segment) || (rest ?? '').startsWith('/ws') ? `${origin}***` : match,
  )
}
