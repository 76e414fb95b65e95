import {createServer, type Server} from 'node:http'
import type {Socket} from 'node:net'
import {PNG} from 'pngjs'
import {WebSocketServer, type WebSocket} from 'ws'

/** How `/json/list` answers: a real page list, or one of the ways a broken or hostile endpoint
 *  answers instead. `other-host` names a page whose WebSocket is on 127.0.0.2 (a second listener
 *  of this fake, which counts who connects there). */
export type ListMode = 'honest' | 'object' | 'null' | 'string' | 'garbage' | 'null-items' | 'other-host' | 'never' | 'huge-error'

/** How the page's WebSocket behaves: `no-upgrade` takes the upgrade request and never answers
 *  it; the others answer every command honestly except as named. */
export type SocketMode =
  'honest' | 'no-upgrade' | 'garbage' | 'null-result' | 'missing-result' | 'empty-evaluate' | 'huge-error' | 'not-an-image' | 'silent'

export interface FakeDevTools {
  port: number
  /** Methods the page's sockets were sent, in order. */
  commands: string[]
  /** WebSocket upgrades that reached the fake at 127.0.0.2 (never, for a client that keeps to its port). */
  otherHostUpgrades(): number
  close(): Promise<void>
}

/** A 20 MB message, far beyond what a line on a terminal should carry. */
export const HUGE = 'x'.repeat(20 * 1024 * 1024)

/** A 1x1 PNG, as Chrome's honest capture (base64). */
function tinyPng(): string {
  const png = new PNG({width: 1, height: 1})
  png.data.fill(255)
  return PNG.sync.write(png).toString('base64')
}

function honestResult(method: string): Record<string, unknown> {
  switch (method) {
    case 'Runtime.evaluate':
      return {result: {type: 'string', value: 'visible'}}
    case 'Page.captureScreenshot':
      return {data: tinyPng()}
    case 'Browser.getWindowForTarget':
      return {windowId: 1, bounds: {left: 0, top: 0, width: 1440, height: 900, windowState: 'normal'}}
    default:
      return {}
  }
}

/** A fake Chrome DevTools endpoint (HTTP page list and page WebSocket) with misbehaviour modes,
 *  for what no real Chrome does. Everything it opens, it closes. */
export async function fakeDevTools(modes: {list?: ListMode; socket?: SocketMode} = {}): Promise<FakeDevTools> {
  const list = modes.list ?? 'honest'
  const socketMode = modes.socket ?? 'honest'
  const commands: string[] = []
  const sockets = new Set<Socket>()
  const wss = new WebSocketServer({noServer: true})
  const track = (server: Server) =>
    server.on('connection', (socket) => {
      sockets.add(socket)
      socket.on('close', () => sockets.delete(socket))
    })

  let otherHostUpgrades = 0
  const other = createServer((_request, response) => response.writeHead(404).end())
  track(other)
  other.on('upgrade', (_request, socket: Socket) => {
    otherHostUpgrades++
    socket.destroy()
  })
  await new Promise<void>((resolve) => other.listen(0, '127.0.0.2', resolve))
  const otherPort = (other.address() as {port: number}).port

  let port = 0
  const page = (host: string, at: number) => ({
    description: '',
    devtoolsFrontendUrl: `/devtools/inspector.html?ws=${host}:${at}/devtools/page/P1`,
    id: 'P1',
    title: 'app',
    type: 'page',
    url: 'http://127.0.0.1:1/',
    webSocketDebuggerUrl: `ws://${host}:${at}/devtools/page/P1`,
  })
  const server = createServer((request, response) => {
    if (request.url !== '/json/list' && request.url !== '/json') return response.writeHead(404).end()
    const send = (body: string, status = 200) => response.writeHead(status, {'content-type': 'application/json'}).end(body)
    switch (list) {
      case 'honest':
        return send(JSON.stringify([page('127.0.0.1', port)]))
      case 'object':
        return send(JSON.stringify({type: 'page', webSocketDebuggerUrl: `ws://127.0.0.1:${port}/devtools/page/P1`}))
      case 'null':
        return send('null')
      case 'string':
        return send('"pages"')
      case 'garbage':
        return send('<html>not json{')
      case 'null-items':
        return send(JSON.stringify([null, page('127.0.0.1', port)]))
      case 'other-host':
        return send(JSON.stringify([page('127.0.0.2', otherPort)]))
      case 'huge-error':
        return send(HUGE, 500)
      case 'never':
        return // the request is left open
    }
  })
  track(server)
  server.on('upgrade', (request, socket: Socket, head) => {
    if (socketMode === 'no-upgrade') return // held open, never answered
    wss.handleUpgrade(request, socket, head, (ws) => serve(ws))
  })
  const serve = (ws: WebSocket) => {
    ws.on('message', (data) => {
      const {id, method} = JSON.parse(String(data)) as {id: number; method: string}
      commands.push(method)
      const reply = (message: unknown) => ws.send(typeof message === 'string' ? message : JSON.stringify(message))
      switch (socketMode) {
        case 'garbage':
          return reply('}{ not json')
        case 'null-result':
          return reply({id, result: null})
        case 'missing-result':
          return reply({id})
        case 'empty-evaluate':
          return reply({id, result: method === 'Runtime.evaluate' ? {} : honestResult(method)})
        case 'huge-error':
          return reply({id, error: {code: -32000, message: HUGE}})
        case 'not-an-image':
          return reply({
            id,
            result:
              method === 'Page.captureScreenshot' ? {data: Buffer.from('hello, not an image').toString('base64')} : honestResult(method),
          })
        case 'silent':
          return
        default:
          return reply({id, result: honestResult(method)})
      }
    })
  }
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  port = (server.address() as {port: number}).port
  return {
    port,
    commands,
    otherHostUpgrades: () => otherHostUpgrades,
    close: async () => {
      for (const client of wss.clients) client.terminate()
      for (const socket of sockets) socket.destroy()
      wss.close()
      await Promise.all([new Promise((resolve) => server.close(resolve)), new Promise((resolve) => other.close(resolve))])
    },
  }
}
