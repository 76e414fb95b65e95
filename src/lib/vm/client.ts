import type WebSocket from 'ws'
import {TapirError, type Worded} from '../errors.js'
import {nestsDeeperThan} from '../json-depth.js'
import {redactToken} from '../output/redact-token.js'
import {describeJson, isJsonObject, type JsonObject} from '../shape.js'
import {Deadline} from './deadline.js'
import {malformedAnswer} from './malformed.js'
import {RpcError} from './rpc-error.js'

/** Deeper than any answer an app gives, and far from where recursive readers (JSON.stringify)
 *  overflow the stack. */
const MAX_ANSWER_DEPTH = 1000

type Pending = {method: string; resolve: (value: JsonObject) => void; reject: (error: Error) => void; timer: NodeJS.Timeout}
type EventHandler = (event: JsonObject) => void

export interface ClientOptions {
  /** Milliseconds the handshake, and a call made without a deadline, may take. */
  timeoutMs: number
}

/** The largest message tapir reads (ws's own default, named so the error can say it). */
export const MAX_MESSAGE_BYTES = 100 * 1024 * 1024

/** Why the socket failed, as the pending calls report it. */
function socketFailure(error: Error & {code?: string}): string | Worded {
  if (error.code === 'WS_ERR_UNSUPPORTED_MESSAGE_LENGTH') {
    return (words) =>
      `the app sent a message larger than ${MAX_MESSAGE_BYTES / 1024 / 1024} MB, more than tapir accepts; ask for less (${words.only('snap --grep, --within, --interactiveOnly or --depth', 'grep, within, interactiveOnly or depth on tapir_snap')})`
  }
  return `the app broke the WebSocket protocol: ${error.message}`
}

/** JSON-RPC 2.0 over one WebSocket to a Dart VM Service (raw VM or DDS). */
export class VmServiceClient {
  private nextId = 1
  private readonly pending = new Map<string, Pending>()
  private readonly listeners = new Map<string, Set<EventHandler>>()
  private closedReason: string | Worded | undefined

  private constructor(
    private readonly socket: WebSocket,
    readonly uri: string,
    private readonly options: ClientOptions,
  ) {
    socket.on('message', (data, isBinary) => this.receive(data, isBinary))
    socket.on('close', () => this.failAll(this.closedReason ?? 'the app exited or restarted'))
    socket.on('error', (error) => {
      this.closedReason ??= socketFailure(error)
    })
  }

  /** Opens the socket; follows the 302 a VM answers with once DDS has taken over. */
  static async connect(uri: string, options: ClientOptions): Promise<VmServiceClient> {
    // Loaded on first use: a command that never connects should not pay for it.
    const {default: WebSocket} = await import('ws')
    return new Promise((resolve, reject) => {
      // No subprotocols and no Origin header: the VM refuses the first and polices the second.
      const socket = new WebSocket(uri, {
        followRedirects: true,
        perMessageDeflate: false,
        handshakeTimeout: options.timeoutMs,
        maxPayload: MAX_MESSAGE_BYTES,
      })
      const fail = (reason: string) => {
        socket.removeAllListeners()
        socket.on('error', () => {})
        socket.terminate()
        reject(
          new TapirError(
            (words) =>
              `Cannot reach the app's VM Service at ${redactToken(uri)}: ${redactToken(reason)}. Is the app still running? Check with ${words.only('`tapir status`', 'tapir_status')}.`,
            'connection',
          ),
        )
      }
      socket.once('open', () => {
        socket.removeAllListeners()
        resolve(new VmServiceClient(socket, uri, options))
      })
      socket.once('error', (error) => fail(error.message))
      socket.once('unexpected-response', (_request, response) =>
        fail(`HTTP ${response.statusCode}${response.statusCode === 403 ? ' (wrong or expired auth token)' : ''}`),
      )
    })
  }

  get isOpen(): boolean {
    return this.socket.readyState === this.socket.OPEN
  }

  /** Sends one request; its answer must come before the deadline (of the verb it is part of),
   *  and is a JSON object, as every VM Service result and extension result is. */
  call(method: string, params: Record<string, unknown> = {}, deadline = new Deadline(this.options.timeoutMs)): Promise<JsonObject> {
    if (!this.isOpen) return Promise.reject(this.closedError(method, this.closedReason ?? 'it is closed'))
    const delay = deadline.remainingMs()
    // Past the deadline nothing is sent: a tap must not land after the verb reported failure.
    if (delay === 0) return Promise.reject(deadline.expired(method))
    const id = String(this.nextId++)
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        this.pending.delete(id)
        reject(deadline.expired(method))
      }, delay)
      this.pending.set(id, {method, resolve, reject, timer})
      this.socket.send(JSON.stringify({jsonrpc: '2.0', id, method, params}))
    })
  }

  /** Subscribes a handler, then the stream; a repeated listen (103) is not an error. */
  async listen(streamId: string, handler: EventHandler): Promise<void> {
    const handlers = this.listeners.get(streamId) ?? new Set()
    const first = handlers.size === 0
    handlers.add(handler)
    this.listeners.set(streamId, handlers)
    if (!first) return
    try {
      await this.call('streamListen', {streamId})
    } catch (error) {
      if (!(error instanceof RpcError && error.code === 103)) throw error
    }
  }

  close(): void {
    this.closedReason = 'tapir closed it'
    this.socket.close()
  }

  private receive(data: WebSocket.RawData, isBinary: boolean): void {
    if (isBinary) return // only HeapSnapshot events are binary; tapir never listens to them
    let message: unknown
    try {
      message = JSON.parse(data.toString())
    } catch {
      // An extension's result is inlined verbatim, so a broken one arrives as a frame we cannot
      // attribute to a request: fail what is waiting rather than let it time out.
      this.failUnattributed(`a frame that is not JSON (${JSON.stringify(data.toString().slice(0, 80))})`)
      return
    }
    const tooDeep = nestsDeeperThan(message, MAX_ANSWER_DEPTH)
    const nested = `it nests arrays and objects deeper than ${MAX_ANSWER_DEPTH} levels`
    if (!isJsonObject(message)) {
      this.failUnattributed(tooDeep ? `a frame where ${nested}` : `a frame that is ${describeJson(message)}, not a JSON-RPC message`)
      return
    }
    if (message.method === 'streamNotify') {
      if (tooDeep) return
      const params = isJsonObject(message.params) ? message.params : {}
      if (!isJsonObject(params.event)) return
      for (const handler of this.listeners.get(String(params.streamId)) ?? []) handler(params.event)
      return
    }
    if (message.id === undefined || message.id === null) return
    const call = this.settle(String(message.id))
    if (!call) return
    if (tooDeep) call.reject(malformedAnswer(call.method, nested))
    else if ('error' in message) call.reject(this.rpcError(call.method, message.error))
    else if (!isJsonObject(message.result))
      call.reject(malformedAnswer(call.method, `its result is ${describeJson(message.result)} where a JSON object belongs`))
    else call.resolve(message.result)
  }

  private rpcError(method: string, error: unknown): Error {
    if (!isJsonObject(error) || typeof error.code !== 'number')
      return malformedAnswer(method, `its error is ${describeJson(error)}, not a JSON-RPC error object with a numeric code`)
    return new RpcError(method, error.code, typeof error.message === 'string' ? error.message : describeJson(error.message), error.data)
  }

  private failUnattributed(what: string): void {
    for (const [id, call] of this.pending) this.settle(id)?.reject(new TapirError(`${call.method} was answered with ${what}.`, 'app'))
  }

  private settle(id: string): Pending | undefined {
    const call = this.pending.get(id)
    if (call) {
      clearTimeout(call.timer)
      this.pending.delete(id)
    }
    return call
  }

  private failAll(reason: string | Worded): void {
    for (const [id, call] of this.pending) this.settle(id)?.reject(this.closedError(call.method, reason))
  }

  private closedError(method: string, reason: string | Worded): TapirError {
    return new TapirError(
      (words) => `The VM Service connection closed before ${method} answered (${typeof reason === 'string' ? reason : reason(words)}).`,
      'connection',
    )
  }
}
