import {readAs, type JsonObject, type Shape} from '../shape.js'
import {CdpSocket} from './cdp-socket.js'
import {listTargets, pageSocketUrl, type Target} from './devtools-http.js'
import {CdpError} from './errors.js'
import {CDP_CALL_MS, limitOf, type TimeLimit} from './time-limit.js'

export interface ChromeEndpoint {
  /** Chrome's remote debugging port. */
  port: number
  /** Prefer the page served on this port (the app's own page on this run's web port). */
  webPort?: number
}

/** One DevTools session on the page that shows the app. Emulation overrides sent through it last
 *  as long as it stays open. Listing, connecting and every command are bounded by the session's
 *  time limit (a verb's deadline), and by the size and shape of what Chrome may send. */
export class CdpPage {
  private constructor(
    private readonly socket: CdpSocket,
    readonly url: string,
    private limit: TimeLimit,
  ) {}

  /** Finds the page target on the endpoint's port and opens a session on it, all within `limit`. */
  static async open(endpoint: ChromeEndpoint, limit: TimeLimit = limitOf(CDP_CALL_MS)): Promise<CdpPage> {
    const pages = (await listTargets(endpoint.port, limit)).filter((target) => target.type === 'page' && target.webSocketDebuggerUrl)
    const target: Target | undefined =
      pages.find((page) => endpoint.webPort !== undefined && portOf(page.url) === String(endpoint.webPort)) ?? pages[0]
    if (!target) throw new CdpError(`Failed to connect to Chrome CDP on port ${endpoint.port}: Chrome has no page open`)
    const socket = await CdpSocket.open(pageSocketUrl(endpoint.port, target), endpoint.port, limit)
    return new CdpPage(socket, target.url ?? '', limit)
  }

  /** Sends one DevTools command within the session's time limit; a refusal, no answer in time or
   *  an answer that is not a JSON object becomes `CDP command failed: ...`. */
  send(method: string, params: Record<string, unknown> = {}): Promise<JsonObject> {
    return this.socket.send(method, params, this.limit)
  }

  /** `send`, with the answer checked against `shape`, what the caller reads of it: an answer of
   *  another shape fails as a refusal does, naming the field. */
  async ask<T>(method: string, params: Record<string, unknown>, shape: Shape<T>): Promise<T> {
    const read = readAs(shape, await this.send(method, params))
    if ('problem' in read) throw new CdpError(`CDP command failed: ${method}: ${read.problem}.`)
    return read.value
  }

  /** Bounds the commands sent from now on by `limit` (a holder releasing long after its verb's deadline). */
  limitTo(limit: TimeLimit): void {
    this.limit = limit
  }

  /** Resolves when Chrome closes the session (the browser or the tab went away). */
  whenGone(): Promise<void> {
    if (!this.socket.isOpen) return Promise.resolve()
    return new Promise((resolve) => this.socket.onClose(resolve))
  }

  async close(): Promise<void> {
    await this.socket.close()
  }
}

/** Opens a session, runs `work` in it and closes it, whatever happens. */
export async function withPage<T>(endpoint: ChromeEndpoint, work: (page: CdpPage) => Promise<T>, limit?: TimeLimit): Promise<T> {
  const page = await CdpPage.open(endpoint, limit)
  try {
    return await work(page)
  } finally {
    await page.close()
  }
}

function portOf(url: string | undefined): string | undefined {
  try {
    return new URL(url ?? '').port
  } catch {
    return undefined
  }
}
