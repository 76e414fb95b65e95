import {createServer, STATUS_CODES, type IncomingMessage, type ServerResponse} from 'node:http'
import type {AddressInfo} from 'node:net'
import type {Duplex} from 'node:stream'
import {WebSocketServer, type WebSocket} from 'ws'
import {Connection} from './connection.js'
import type {Decision, FrontDoor} from './front-door.js'
import {hostForUri} from './uri.js'
import type {SimVm} from './vm.js'

type Reply = Extract<Decision, {kind: 'respond'}>

const upgradeRequired: Reply = {kind: 'respond', status: 426, body: 'upgrade required'}

export interface ListeningServer {
  port: number
  close(): Promise<void>
}

/** An HTTP server whose front door decides every request; accepted upgrades become VM clients. */
export async function serve(options: {host: string; port: number; door: FrontDoor; vm: SimVm}): Promise<ListeningServer> {
  const {door, vm} = options
  const sockets = new Set<WebSocket>()
  // The VM selects `implicit-redirect` whatever subprotocols the client offered.
  const webSockets = new WebSocketServer({noServer: true, perMessageDeflate: false, handleProtocols: () => 'implicit-redirect'})
  const server = createServer()
  let serverHost = ''

  server.on('request', (request: IncomingMessage, response: ServerResponse) => {
    const decision = door.route(request, false, serverHost)
    const reply = decision.kind === 'respond' ? decision : upgradeRequired
    response.writeHead(reply.status, headersFor(reply)).end(reply.body)
  })
  server.on('upgrade', (request: IncomingMessage, socket: Duplex, head: Buffer) => {
    socket.on('error', () => socket.destroy())
    noteUpgradeMisuse(request, vm)
    const decision = door.route(request, true, serverHost)
    if (decision.kind === 'respond') {
      socket.end(rawResponse(decision))
      return
    }
    webSockets.handleUpgrade(request, socket, head, (webSocket) => {
      sockets.add(webSocket)
      webSocket.on('close', () => sockets.delete(webSocket))
      new Connection(webSocket, vm)
    })
  })

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject)
    server.listen(options.port, options.host, () => {
      server.off('error', reject)
      resolve()
    })
  })
  const port = (server.address() as AddressInfo).port
  serverHost = `${hostForUri(options.host)}:${port}`

  return {
    port,
    async close() {
      for (const socket of sockets) socket.terminate()
      webSockets.close()
      server.closeAllConnections()
      await new Promise<void>((resolve) => server.close(() => resolve()))
    },
  }
}

function noteUpgradeMisuse(request: IncomingMessage, vm: SimVm): void {
  const origin = request.headers.origin ?? request.headers['sec-websocket-origin']
  if (origin !== undefined) vm.violation(`WebSocket upgrade sent an Origin header (${String(origin)}); send none`)
  const protocols = request.headers['sec-websocket-protocol']
  if (protocols !== undefined)
    vm.violation(`WebSocket upgrade offered subprotocols (${protocols}); the VM always selects implicit-redirect`)
}

function headersFor(decision: Reply): Record<string, string> {
  const headers: Record<string, string> = {'Content-Type': 'text/plain; charset=utf-8'}
  if (decision.location !== undefined) headers.Location = decision.location
  return headers
}

function rawResponse(decision: Reply): string {
  const headers = {...headersFor(decision), 'Content-Length': String(Buffer.byteLength(decision.body)), Connection: 'close'}
  const lines = Object.entries(headers)
    .map(([name, value]) => `${name}: ${value}\r\n`)
    .join('')
  return `HTTP/1.1 ${decision.status} ${STATUS_CODES[decision.status] ?? ''}\r\n${lines}\r\n${decision.body}`
}
