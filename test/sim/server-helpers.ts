import {request as httpRequest} from 'node:http'
import {afterEach} from 'vitest'
import WebSocket from 'ws'
import {ExtensionError, startSim, type EvaluateReply, type SimApp, type SimHandle, type SimOptions} from '../../src/sim/index.js'

export type Json = Record<string, any>

/** A raw JSON-RPC client over `ws`, recording every frame it receives. */
export class RawClient {
  readonly frames: string[] = []
  readonly closed: Promise<{code: number; reason: string}>
  private nextId = 1
  private waiters: Array<() => void> = []

  private constructor(readonly socket: WebSocket) {
    socket.on('message', (data) => {
      this.frames.push(data.toString())
      for (const wake of this.waiters.splice(0)) wake()
    })
    this.closed = new Promise((resolve) => socket.on('close', (code, reason) => resolve({code, reason: reason.toString()})))
  }

  static open(url: string, options: WebSocket.ClientOptions & {protocols?: string[]} = {}): Promise<RawClient> {
    const socket = new WebSocket(url, options.protocols ?? [], options)
    return new Promise((resolve, reject) => {
      socket.once('open', () => resolve(new RawClient(socket)))
      socket.once('error', reject)
    })
  }

  sendText(text: string): void {
    this.socket.send(text)
  }

  /** Sends a request and resolves with the parsed reply frame carrying its id. */
  async call(method: string, params: Json = {}, id: string | number = String(this.nextId++)): Promise<Json> {
    this.sendText(JSON.stringify({jsonrpc: '2.0', id, method, params}))
    return this.waitFor((message) => message.id === id && !('method' in message))
  }

  /** Resolves with the first frame (seen or coming) that parses and satisfies `predicate`. */
  async waitFor(predicate: (message: Json) => boolean, timeoutMs = 1000): Promise<Json> {
    const deadline = Date.now() + timeoutMs
    for (;;) {
      for (const frame of this.frames) {
        const message = tryParse(frame)
        if (message && predicate(message)) return message
      }
      const remaining = deadline - Date.now()
      if (remaining <= 0) throw new Error('timed out waiting for a frame')
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, remaining)
        this.waiters.push(() => {
          clearTimeout(timer)
          resolve()
        })
      })
    }
  }

  events(streamId: string): Json[] {
    return this.frames
      .map(tryParse)
      .filter((message): message is Json => message?.method === 'streamNotify' && message.params.streamId === streamId)
      .map((message) => message.params.event)
  }

  close(): void {
    this.socket.terminate()
  }
}

function tryParse(frame: string): Json | undefined {
  try {
    return JSON.parse(frame) as Json
  } catch {
    return undefined
  }
}

export function httpGet(
  url: string,
  headers: Record<string, string> = {},
  method = 'GET',
): Promise<{status: number; location?: string; body: string}> {
  return new Promise((resolve, reject) => {
    const request = httpRequest(url, {method, headers}, (response) => {
      let body = ''
      response.on('data', (chunk) => (body += chunk))
      response.on('end', () => resolve({status: response.statusCode ?? 0, location: response.headers.location, body}))
    })
    request.on('error', reject)
    request.end()
  })
}

/** Resolves with the HTTP status a failed WebSocket handshake got. */
export function refusedUpgrade(url: string, options: WebSocket.ClientOptions = {}): Promise<number> {
  return new Promise((resolve, reject) => {
    const socket = new WebSocket(url, options)
    socket.once('unexpected-response', (_request, response) => {
      resolve(response.statusCode ?? 0)
      socket.terminate()
    })
    socket.once('open', () => reject(new Error('the upgrade was accepted')))
    socket.once('error', () => undefined)
  })
}

/** A tiny app: `ping` echoes its params, `fail` and `refuse` answer ExtensionErrors, `crash` throws. */
export function fakeApp(): SimApp & {boots: number; lastParams?: Record<string, string>} {
  return {
    extensions: ['ping', 'fail', 'refuse', 'crash', 'boot_id'],
    boots: 1,
    closed: false,
    async call(method, params) {
      this.lastParams = params
      switch (method) {
        case 'ping':
          return {pong: true, params}
        case 'fail':
          throw new ExtensionError(-32001, JSON.stringify({message: 'no such widget', envelope: {type: 'not_found', suggestions: []}}))
        case 'refuse':
          throw new ExtensionError(-32602, 'bad finder')
        case 'boot_id':
          return {bootId: `boot-${this.boots}`}
        default:
          throw new Error(`boom in ${method}`)
      }
    },
    evaluate(expression): EvaluateReply {
      if (expression === '1 + 2') return {kind: 'value', value: {type: 'int', value: 3}}
      if (expression === "'x'") return {kind: 'value', value: {type: 'String', value: 'x'.repeat(200)}}
      if (expression === 'throw') return {kind: 'thrown', exception: 'Bad state'}
      return {kind: 'compileError', details: `Error: Undefined name '${expression}'.`}
    },
    restart() {
      this.boots++
    },
    setLifecycle() {},
  }
}

/** A fresh sim hosting the fake app per test, and the raw clients opened on it, all closed
 *  after each test. */
export function simPerTest() {
  let sim: SimHandle | undefined
  const clients: RawClient[] = []
  afterEach(async () => {
    for (const client of clients.splice(0)) client.close()
    await sim?.close()
    sim = undefined
  })
  const harness = {
    get sim(): SimHandle {
      return sim!
    },
    async start(options: SimOptions = {}): Promise<SimHandle> {
      sim = await startSim({app: fakeApp(), ...options})
      return sim
    },
    async open(url: string, options?: Parameters<typeof RawClient.open>[1]): Promise<RawClient> {
      const client = await RawClient.open(url, options)
      clients.push(client)
      return client
    },
    /** Starts a sim, opens a client on its ws URI, and reads the isolate id. */
    async connect(
      options: SimOptions = {},
      clientOptions?: Parameters<typeof RawClient.open>[1],
    ): Promise<{client: RawClient; isolateId: string}> {
      const started = await harness.start(options)
      const client = await harness.open(started.wsUri, clientOptions)
      const vm = await client.call('getVM')
      return {client, isolateId: vm.result.isolates[0].id}
    },
  }
  return harness
}
