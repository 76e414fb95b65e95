import {createServer, type IncomingMessage, type ServerResponse} from 'node:http'
import type {AddressInfo} from 'node:net'
import type {SimApp, WebView} from '../app-contract.js'
import {PAGE_HTML} from './page.js'

/** How long a `/frame` request waits for a new frame before answering with the current one. */
const LONG_POLL_MS = 10_000
const MAX_BODY_BYTES = 4096

export interface PageServer {
  port: number
  close(): Promise<void>
}

/** The web server of `flutter run -d web-server`: the page at `/`, the frames it draws at
 *  `/frame?after=N` (held until a frame newer than N), `/view` where it reports its window and
 *  `/lifecycle` where it reports the tab's visibility. */
export async function servePage(
  app: Required<Pick<SimApp, 'resize' | 'displayList' | 'onFrame' | 'setLifecycle'>>,
  options: {host: string; port: number; onBrowser?: () => void},
): Promise<PageServer> {
  let browserSeen = false
  const waiting = new Set<() => void>()
  const stopFollowing = app.onFrame(() => {
    for (const wake of [...waiting]) wake()
  })
  const server = createServer((request, response) => {
    handle(request, response).catch((error: unknown) => {
      if (!response.headersSent) response.writeHead(500, {'Content-Type': 'text/plain'})
      response.end(String(error))
    })
  })

  async function handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const url = new URL(request.url ?? '/', 'http://page.invalid')
    if (request.method === 'GET' && url.pathname === '/') {
      response.writeHead(200, {'Content-Type': 'text/html; charset=utf-8', 'Cache-Control': 'no-store'}).end(PAGE_HTML)
    } else if (request.method === 'GET' && url.pathname === '/frame') {
      if (!browserSeen) {
        browserSeen = true
        options.onBrowser?.()
      }
      const after = Number(url.searchParams.get('after') ?? '-1')
      if (app.displayList().frame <= after) await nextFrame(request)
      sendJson(response, app.displayList())
    } else if (request.method === 'POST' && url.pathname === '/view') {
      const view = parseView(await readBody(request))
      if (!view)
        return void response.writeHead(400, {'Content-Type': 'text/plain'}).end('expected {width, height, devicePixelRatio, touch}')
      app.resize(view)
      response.writeHead(204).end()
    } else if (request.method === 'POST' && url.pathname === '/lifecycle') {
      const visibility = await readBody(request)
      if (visibility !== 'hidden' && visibility !== 'visible')
        return void response.writeHead(400, {'Content-Type': 'text/plain'}).end('expected hidden or visible')
      app.setLifecycle(visibility === 'hidden' ? 'hidden' : 'resumed')
      response.writeHead(204).end()
    } else {
      response.writeHead(404, {'Content-Type': 'text/plain'}).end('not found')
    }
  }

  function nextFrame(request: IncomingMessage): Promise<void> {
    return new Promise((resolve) => {
      const wake = (): void => {
        clearTimeout(timer)
        waiting.delete(wake)
        resolve()
      }
      const timer = setTimeout(wake, LONG_POLL_MS)
      waiting.add(wake)
      request.once('close', wake)
    })
  }

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject)
    server.listen(options.port, options.host, () => {
      server.off('error', reject)
      resolve()
    })
  })
  return {
    port: (server.address() as AddressInfo).port,
    async close() {
      stopFollowing()
      for (const wake of [...waiting]) wake()
      server.closeAllConnections()
      await new Promise<void>((resolve) => server.close(() => resolve()))
    },
  }
}

function sendJson(response: ServerResponse, value: unknown): void {
  response.writeHead(200, {'Content-Type': 'application/json', 'Cache-Control': 'no-store'}).end(JSON.stringify(value))
}

async function readBody(request: IncomingMessage): Promise<string> {
  let text = ''
  for await (const chunk of request) {
    text += String(chunk)
    if (text.length > MAX_BODY_BYTES) throw new Error('body too large')
  }
  return text
}

function parseView(text: string): WebView | undefined {
  try {
    const value = JSON.parse(text) as Partial<WebView>
    const positive = (n: unknown): n is number => typeof n === 'number' && Number.isFinite(n) && n > 0
    if (!positive(value.width) || !positive(value.height) || !positive(value.devicePixelRatio) || typeof value.touch !== 'boolean')
      return undefined
    return {width: value.width, height: value.height, devicePixelRatio: value.devicePixelRatio, touch: value.touch}
  } catch {
    return undefined
  }
}
