import type WebSocket from 'ws'
import type {Words} from '../errors.js'
import {jsonKind} from '../json-kind.js'
import {CdpError} from './errors.js'
import {isObject} from './json-shape.js'
import type {TimeLimit} from './time-limit.js'

/** The largest DevTools message tapir reads: a full-page capture of a large, dense screen fits. */
export const MAX_CDP_MESSAGE_BYTES = 100 * 1024 * 1024

type Pending = {method: string; resolve: (result: Record<string, unknown>) => void; reject: (error: Error) => void; timer: NodeJS.Timeout}

const commandFailed = (method: string, why: string) => new CdpError(`CDP command failed: ${method}: ${why}`)

/** One DevTools session over a WebSocket: commands and their answers, each checked to be the
 *  shape the protocol gives it. Anything else fails the command with a line naming what came. */
export class CdpSocket {
  private nextId = 1
  private readonly pending = new Map<number, Pending>()
  private readonly closeListeners = new Set<() => void>()
  private brokenBecause: string | undefined
  private closed = false

  private constructor(private readonly socket: WebSocket) {
    socket.on('message', (data, isBinary) => this.receive(data, isBinary))
    socket.on('close', () => {
      this.closed = true
      this.failAll(this.brokenBecause ?? 'Chrome closed the DevTools session.')
      for (const listener of this.closeListeners) listener()
    })
    socket.on('error', (error: Error & {code?: string}) => {
      this.brokenBecause ??=
        error.code === 'WS_ERR_UNSUPPORTED_MESSAGE_LENGTH'
          ? `Chrome sent a message larger than ${MAX_CDP_MESSAGE_BYTES / 1024 / 1024} MB, more than tapir accepts.`
          : `the DevTools WebSocket failed (${error.message}).`
    })
  }

  /** Opens the page's WebSocket, within `limit`; on failure nothing is left open. */
  static async open(url: string, port: number, limit: TimeLimit): Promise<CdpSocket> {
    const {default: WebSocket} = await import('ws')
    return new Promise((resolve, reject) => {
      const socket = new WebSocket(url, {perMessageDeflate: false, followRedirects: false, maxPayload: MAX_CDP_MESSAGE_BYTES})
      const fail = (message: string | ((words: Words) => string)) => {
        clearTimeout(timer)
        socket.removeAllListeners()
        socket.on('error', () => {})
        socket.terminate()
        reject(new CdpError(message))
      }
      const timer = setTimeout(
        () =>
          fail(
            (words) =>
              `Chrome's DevTools port ${port} did not open the page's WebSocket within ${limit.totalMs} ms (${words.only('--timeout', 'the timeout')}). Is Chrome busy, or is something else listening on ${port}?`,
          ),
        limit.remainingMs(),
      )
      socket.once('open', () => {
        clearTimeout(timer)
        socket.removeAllListeners()
        resolve(new CdpSocket(socket))
      })
      socket.once('error', (error) => fail(`Failed to connect to Chrome CDP on port ${port}: ${error.message}`))
      socket.once('unexpected-response', (_request, response) =>
        fail(`Failed to connect to Chrome CDP on port ${port}: the page's WebSocket answered HTTP ${response.statusCode}`),
      )
    })
  }

  get isOpen(): boolean {
    return !this.closed
  }

  /** Sends one command; its answer must come within `limit` and carry a result object. */
  send(method: string, params: Record<string, unknown>, limit: TimeLimit): Promise<Record<string, unknown>> {
    if (this.closed) return Promise.reject(commandFailed(method, this.brokenBecause ?? 'Chrome closed the DevTools session.'))
    const delay = limit.remainingMs()
    if (delay === 0) return Promise.reject(this.expired(method, limit))
    const id = this.nextId++
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        this.pending.delete(id)
        reject(this.expired(method, limit))
      }, delay)
      this.pending.set(id, {method, resolve, reject, timer})
      this.socket.send(JSON.stringify({id, method, params}))
    })
  }

  onClose(listener: () => void): void {
    this.closeListeners.add(listener)
  }

  /** Closes the session; a peer that does not answer the close is cut off. */
  async close(): Promise<void> {
    if (this.closed) return
    await new Promise<void>((resolve) => {
      const cutOff = setTimeout(() => this.socket.terminate(), 1000)
      this.socket.once('close', () => {
        clearTimeout(cutOff)
        resolve()
      })
      this.socket.close()
    })
  }

  private expired(method: string, limit: TimeLimit): CdpError {
    return new CdpError(
      (words) =>
        `CDP command failed: ${method}: Chrome did not answer within ${limit.totalMs} ms (${words.only('--timeout', 'the timeout')}). The page may be paused or busy.`,
    )
  }

  private receive(data: WebSocket.RawData, isBinary: boolean): void {
    let message: unknown
    try {
      message = isBinary ? undefined : JSON.parse(data.toString())
    } catch {
      message = undefined
    }
    if (!isObject(message)) {
      // A message that cannot be attributed: the session is broken, so fail what waits on it.
      this.brokenBecause =
        message === undefined ? 'Chrome sent a message that is not JSON.' : `Chrome sent ${jsonKind(message)}, not a DevTools message.`
      this.failAll(this.brokenBecause)
      this.socket.terminate()
      return
    }
    if (typeof message.id !== 'number') return // an event: tapir subscribes to none
    const call = this.pending.get(message.id)
    if (!call) return
    clearTimeout(call.timer)
    this.pending.delete(message.id)
    if (message.error !== undefined) call.reject(commandFailed(call.method, refusal(message.error)))
    else if (!('result' in message)) call.reject(commandFailed(call.method, 'the answer has no result.'))
    else if (!isObject(message.result)) call.reject(commandFailed(call.method, `its result is ${jsonKind(message.result)}, not an object.`))
    else call.resolve(message.result)
  }

  private failAll(why: string): void {
    for (const [id, call] of this.pending) {
      clearTimeout(call.timer)
      this.pending.delete(id)
      call.reject(commandFailed(call.method, why))
    }
  }
}

/** Chrome's own words for a refused command (`{code, message, data?}`). */
function refusal(error: unknown): string {
  if (!isObject(error) || typeof error.message !== 'string') return `Chrome refused it with ${jsonKind(error)} instead of an error object.`
  return typeof error.data === 'string' ? `${error.message} (${error.data})` : error.message
}
