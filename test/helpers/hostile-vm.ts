import {createServer, type Server} from 'node:http'
import type {Socket} from 'node:net'
import {setTimeout as delay} from 'node:timers/promises'
import {WebSocketServer, type WebSocket} from 'ws'

export const HOSTILE_TOKEN = 'H0stileT0k3n='

/** An event the VM sends on a stream (a `ServiceRegistered` on `Service`, ...). */
export type StreamEvent = {streamId: string; event: Record<string, unknown>}

/** How the hostile VM answers one request: a JSON-RPC `result` (any JSON, or `undefined` to leave
 *  the key out), after the stream `events` it sends first (as a VM announces the services others
 *  registered before its streamListen reply), an `error` object, a raw frame text, a
 *  frame header announcing `oversizeBytes`, or nothing at all; optionally after `delayMs`. */
export type Answer =
  | {result: unknown; delayMs?: number; events?: StreamEvent[]}
  | {error: unknown; delayMs?: number}
  | {raw: string; delayMs?: number}
  | {rawResult: string}
  | {oversizeBytes: number}
  | {never: true}

export type Answers = (method: string, params: Record<string, unknown>) => Answer | undefined

const ISOLATE_ID = 'isolates/1'

/** A well-behaved VM with one isolate running tapir, for the methods a test does not override. */
export function honest(method: string, params: Record<string, unknown>): Answer {
  switch (method) {
    case 'getVersion':
      return {result: {type: 'Version', major: 4, minor: 20}}
    case 'getVM':
      return {result: {type: 'VM', name: 'vm', isolates: [{type: '@Isolate', id: ISOLATE_ID, name: 'main'}]}}
    case 'getIsolate':
      return {
        result: {
          type: 'Isolate',
          id: params.isolateId,
          name: 'main',
          rootLib: {type: '@Library', id: 'libraries/1'},
          extensionRPCs: ['ext.tapir.snap', 'ext.tapir.tap'],
        },
      }
    default:
      return {error: {code: -32601, message: 'Method not found'}}
  }
}

export interface HostileVm {
  /** `http://127.0.0.1:<port>/<token>/`, as flutter run prints it. */
  httpUri: string
  requests: Array<{method: string; params: Record<string, unknown>}>
  close(): Promise<void>
}

/** A VM Service that answers as a test tells it to: malformed results, escape sequences, slow
 *  isolates, frames larger than a client accepts. Requests a test leaves alone get `honest`. */
export async function hostileVm(answers: Answers): Promise<HostileVm> {
  const wss = new WebSocketServer({noServer: true, maxPayload: 1024 * 1024})
  const server: Server = createServer((_request, response) => response.writeHead(404).end())
  const sockets = new Set<Socket>()
  const requests: HostileVm['requests'] = []
  server.on('connection', (socket) => {
    sockets.add(socket)
    socket.on('close', () => sockets.delete(socket))
  })
  server.on('upgrade', (request, socket: Socket, head) => {
    if (request.url !== `/${HOSTILE_TOKEN}/ws`) return socket.destroy()
    wss.handleUpgrade(request, socket, head, (ws) => serve(ws, socket))
  })
  const serve = (ws: WebSocket, socket: Socket) => {
    ws.on('message', (data) => void reply(data))
    const reply = async (data: WebSocket.RawData): Promise<void> => {
      const request = JSON.parse(data.toString()) as {id: string; method: string; params?: Record<string, unknown>}
      const params = request.params ?? {}
      requests.push({method: request.method, params})
      const answer = answers(request.method, params) ?? honest(request.method, params)
      if ('never' in answer) return
      if ('oversizeBytes' in answer) {
        // A text frame header announcing a payload of that size (64-bit length), then a little of it.
        const header = Buffer.alloc(10)
        header[0] = 0x81
        header[1] = 127
        header.writeBigUInt64BE(BigInt(answer.oversizeBytes), 2)
        socket.write(Buffer.concat([header, Buffer.from('{"jsonrpc":"2.0","result":{')]))
        return
      }
      if ('rawResult' in answer) return ws.send(`{"jsonrpc":"2.0","id":${JSON.stringify(request.id)},"result":${answer.rawResult}}`)
      if (answer.delayMs) await delay(answer.delayMs)
      if (ws.readyState !== ws.OPEN) return
      if ('raw' in answer) ws.send(answer.raw)
      else if ('error' in answer) ws.send(JSON.stringify({jsonrpc: '2.0', id: request.id, error: answer.error}))
      else {
        for (const params of answer.events ?? []) ws.send(JSON.stringify({jsonrpc: '2.0', method: 'streamNotify', params}))
        ws.send(JSON.stringify({jsonrpc: '2.0', id: request.id, result: answer.result}))
      }
    }
  }
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const {port} = server.address() as {port: number}
  return {
    httpUri: `http://127.0.0.1:${port}/${HOSTILE_TOKEN}/`,
    requests,
    close: async () => {
      for (const client of wss.clients) client.terminate()
      for (const socket of sockets) socket.destroy()
      wss.close()
      await new Promise((resolve) => server.close(resolve))
    },
  }
}
