import type {Words} from '../errors.js'
import {jsonKind} from '../json-kind.js'
import {CdpError} from './errors.js'
import {isObject} from './json-shape.js'
import type {TimeLimit} from './time-limit.js'

export const DEVTOOLS_HOST = '127.0.0.1'

/** The most of a DevTools HTTP answer tapir reads: a page list of thousands of tabs fits. */
const MAX_ANSWER_BYTES = 4 * 1024 * 1024

/** A page target as Chrome lists it on /json/list; fields of the wrong type read as absent. */
export interface Target {
  type?: string
  url?: string
  webSocketDebuggerUrl?: string
}

const wrongPort = (port: number): string => `Check that ${port} is the remote debugging port of a Chrome.`

/** What `getDevToolsJson` resolves to when the answer is not JSON (each caller words it). */
export const NOT_JSON = Symbol('not JSON')

/** GETs `path` from Chrome's DevTools HTTP endpoint on `port`, bounded by `limit` and in size,
 *  and parses it as JSON. Nothing of the answer's body reaches an error message. */
export async function getDevToolsJson(port: number, path: string, limit: TimeLimit): Promise<unknown> {
  const {request} = await import('node:http')
  return new Promise<unknown>((resolve, reject) => {
    const fail = (message: string | ((words: Words) => string)) => {
      clearTimeout(timer)
      outgoing.destroy()
      reject(new CdpError(message))
    }
    // No keep-alive agent: nothing stays open once the answer is in.
    const outgoing = request({host: DEVTOOLS_HOST, port, path, agent: false, headers: {host: `${DEVTOOLS_HOST}:${port}`}}, (response) => {
      if (response.statusCode !== 200)
        return fail(`Chrome's DevTools port ${port} answered ${path} with HTTP ${response.statusCode}. ${wrongPort(port)}`)
      const chunks: Buffer[] = []
      let size = 0
      response.on('data', (chunk: Buffer) => {
        size += chunk.length
        if (size > MAX_ANSWER_BYTES)
          return fail(
            `Chrome's DevTools port ${port} answered ${path} with more than ${MAX_ANSWER_BYTES / 1024 / 1024} MB. ${wrongPort(port)}`,
          )
        chunks.push(chunk)
      })
      response.on('error', (error) => fail(`Chrome's DevTools port ${port} broke off its answer to ${path} (${error.message}).`))
      response.on('end', () => {
        clearTimeout(timer)
        try {
          resolve(JSON.parse(Buffer.concat(chunks).toString('utf8')))
        } catch {
          resolve(NOT_JSON)
        }
      })
    })
    const timer = setTimeout(
      () =>
        fail(
          (words) =>
            `Chrome's DevTools port ${port} did not answer ${path} within ${limit.totalMs} ms (${words.only('--timeout', 'the timeout')}). Is Chrome busy, or is something else listening on ${port}?`,
        ),
      limit.remainingMs(),
    )
    outgoing.on('error', (error) => fail(`Failed to connect to Chrome CDP on port ${port}: ${error.message}`))
    outgoing.end()
  })
}

/** The targets Chrome lists, checked to be a list of objects. */
export async function listTargets(port: number, limit: TimeLimit): Promise<Target[]> {
  const answer = await getDevToolsJson(port, '/json/list', limit)
  const malformed = (what: string) =>
    new CdpError(`Chrome's DevTools port ${port} answered /json/list with ${what}, not a list of targets. ${wrongPort(port)}`)
  if (answer === NOT_JSON) throw malformed('text that is not JSON')
  if (!Array.isArray(answer)) throw malformed(jsonKind(answer))
  return answer.map((item: unknown, index) => {
    if (!isObject(item)) throw malformed(`a list whose item ${index} is ${jsonKind(item)}`)
    const text = (key: string) => (typeof item[key] === 'string' ? {[key]: item[key]} : {})
    return {...text('type'), ...text('url'), ...text('webSocketDebuggerUrl')}
  })
}

/** The page's WebSocket, on the endpoint's own host and port only: a page list naming another
 *  host is refused, never followed. */
export function pageSocketUrl(port: number, target: Target): string {
  let url: URL
  try {
    url = new URL(target.webSocketDebuggerUrl ?? '')
  } catch {
    throw new CdpError(`Chrome's DevTools port ${port} lists a page with no usable WebSocket address. ${wrongPort(port)}`)
  }
  const local = url.hostname === DEVTOOLS_HOST || url.hostname === 'localhost'
  if (url.protocol !== 'ws:' || !local || url.port !== String(port))
    throw new CdpError(
      `Chrome's DevTools port ${port} lists the page's WebSocket on ${url.host || url.protocol}, not on ${DEVTOOLS_HOST}:${port}; tapir connects only to the session's cdpPort.`,
    )
  return `ws://${DEVTOOLS_HOST}:${port}${url.pathname}${url.search}`
}
