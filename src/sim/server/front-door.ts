import type {IncomingMessage} from 'node:http'

export type Decision = {kind: 'accept'} | {kind: 'respond'; status: number; body: string; location?: string}

/** How an HTTP server answers a request (or a WebSocket upgrade) before any JSON-RPC. */
export interface FrontDoor {
  /** `serverHost` is the server's own `host:port`, an allowed Origin. */
  route(request: IncomingMessage, upgrade: boolean, serverHost: string): Decision
}

const respond = (status: number, body: string, location?: string): Decision => ({kind: 'respond', status, body, location})
const forbiddenToken = respond(403, 'missing or invalid authentication code')

/** The VM's own server: origin check, GET only, token, `/TOKEN` → `/TOKEN/`, and WebSockets at
 *  `/TOKEN/ws` only. Once DDS has taken over (`ddsHttpUri`), `/ws` redirects to DDS's http root. */
export function vmFrontDoor(token: string, ddsHttpUri?: string): FrontDoor {
  return {
    route(request, upgrade, serverHost) {
      const origin = request.headers.origin ?? request.headers['sec-websocket-origin']
      if (typeof origin === 'string' && !isAllowedOrigin(origin, serverHost)) return respond(403, 'forbidden origin')
      if (request.method !== 'GET') return respond(405, 'method not allowed')
      const segments = pathSegments(request)
      if (segments[0] !== token) return forbiddenToken
      if (segments.length === 1) return respond(302, '', `/${token}/`)
      const rest = segments.slice(1).join('/')
      if (rest === 'ws') {
        if (!upgrade) return respond(400, 'not a WebSocket upgrade request')
        return ddsHttpUri === undefined ? {kind: 'accept'} : respond(302, '', ddsHttpUri)
      }
      return rest === '' ? respond(200, 'Dart VM Service (tapir-sim)') : respond(404, 'not found')
    },
  }
}

/** DDS: the token, then a WebSocket at any path under it. */
export function ddsFrontDoor(token: string): FrontDoor {
  return {
    route(request, upgrade) {
      const segments = pathSegments(request)
      if (segments[0] !== token) return forbiddenToken
      if (upgrade) return {kind: 'accept'}
      if (request.method !== 'GET') return respond(405, 'method not allowed')
      return segments.slice(1).join('/') === '' ? respond(200, 'Dart Development Service (tapir-sim)') : respond(404, 'not found')
    },
  }
}

/** DWDS: checks only that the first path segment is the token; a WebSocket at any path under it.
 *  Once DDS has taken control (`ddsHttpUri`), every request is refused with a 403 naming DDS. */
export function dwdsFrontDoor(token: string, ddsHttpUri?: string): FrontDoor {
  return {
    route(request, upgrade) {
      const segments = pathSegments(request)
      if (segments[0] !== token) return forbiddenToken
      if (ddsHttpUri !== undefined) {
        return respond(
          403,
          `Cannot connect directly to the VM service as a Dart Development Service (DDS) instance has taken control and can be found at ${ddsHttpUri}.`,
        )
      }
      if (upgrade) return {kind: 'accept'}
      return respond(200, 'Dart Web Debug Service (tapir-sim)')
    },
  }
}

function pathSegments(request: IncomingMessage): string[] {
  const path = new URL(request.url ?? '/', 'http://sim.invalid').pathname
  return path
    .split('/')
    .slice(1)
    .map((segment) => {
      try {
        return decodeURIComponent(segment)
      } catch {
        return segment
      }
    })
}

function isAllowedOrigin(origin: string, serverHost: string): boolean {
  try {
    const url = new URL(origin)
    return ['localhost', '127.0.0.1', '[::1]'].includes(url.hostname) || url.host === serverHost
  } catch {
    return false
  }
}
