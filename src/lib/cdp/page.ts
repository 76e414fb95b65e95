import type CDP from 'chrome-remote-interface'
import {CdpError, reason} from './errors.js'

const HOST = '127.0.0.1'
/** How long one DevTools exchange may take: a page paused at a breakpoint, or busy, never answers. */
export const CDP_CALL_MS = 30_000

/** `work`, or a CdpError naming `what` once `CDP_CALL_MS` passes first. */
function bounded<T>(work: Promise<T>, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined
  const expired = new Promise<never>((_resolve, reject) => {
    timer = setTimeout(
      () => reject(new CdpError(`${what} got no answer from Chrome within ${CDP_CALL_MS / 1000} s (the page may be paused or busy).`)),
      CDP_CALL_MS,
    )
    timer.unref()
  })
  return Promise.race([work, expired]).finally(() => clearTimeout(timer))
}

export interface ChromeEndpoint {
  /** Chrome's remote debugging port. */
  port: number
  /** Prefer the page served on this port (the app's own page on this run's web port). */
  webPort?: number
}

type PageOptions = ChromeEndpoint

/** chrome-remote-interface (with its own ws and the protocol) loads only when a verb talks to Chrome. */
export const loadClient = () => import('chrome-remote-interface')

/** One DevTools session on the page that shows the app. Emulation overrides sent through it last
 *  as long as it stays open. */
export class CdpPage {
  private gone = false
  private readonly goneListeners = new Set<() => void>()

  private constructor(
    private readonly client: CDP.Client,
    readonly url: string,
  ) {
    client.on('disconnect', () => {
      this.gone = true
      for (const listener of this.goneListeners) listener()
    })
  }

  /** Finds the page target on `port` and opens a session on it, with the protocol bundled in
   *  chrome-remote-interface (headless builds may not serve /json/protocol). */
  static async open(options: PageOptions): Promise<CdpPage> {
    const failed = (error: unknown) => new CdpError(`Failed to connect to Chrome CDP on port ${options.port}: ${reason(error)}`)
    const {default: connect} = await loadClient()
    let targets: CDP.Target[]
    try {
      targets = await bounded(connect.List({host: HOST, port: options.port}), 'Listing the pages')
    } catch (error) {
      throw failed(error)
    }
    const pages = targets.filter((target) => target.type === 'page')
    const target = pages.find((page) => options.webPort !== undefined && portOf(page.url) === String(options.webPort)) ?? pages[0]
    if (!target) throw failed(new Error('Chrome has no page open'))
    try {
      return new CdpPage(
        await bounded(connect({host: HOST, port: options.port, target, local: true}), 'Connecting to the page'),
        target.url,
      )
    } catch (error) {
      throw failed(error)
    }
  }

  /** Sends one DevTools command; a refusal becomes `CDP command failed: ...`. */
  async send<T = Record<string, unknown>>(method: string, params: Record<string, unknown> = {}): Promise<T> {
    try {
      // chrome-remote-interface types send() by method; a method named at run time reads as its callback form.
      return (await bounded(this.client.send(method as never, params as never) as unknown as Promise<unknown>, method)) as T
    } catch (error) {
      throw new CdpError(`CDP command failed: ${method}: ${reason(error)}`)
    }
  }

  /** Resolves when Chrome closes the session (the browser or the tab went away). */
  whenGone(): Promise<void> {
    if (this.gone) return Promise.resolve()
    return new Promise((resolve) => this.goneListeners.add(resolve))
  }

  async close(): Promise<void> {
    if (!this.gone) await this.client.close().catch(() => {})
  }
}

/** Opens a session, runs `work` in it and closes it, whatever happens. */
export async function withPage<T>(options: PageOptions, work: (page: CdpPage) => Promise<T>): Promise<T> {
  const page = await CdpPage.open(options)
  try {
    return await work(page)
  } finally {
    await page.close()
  }
}

function portOf(url: string): string | undefined {
  try {
    return new URL(url).port
  } catch {
    return undefined
  }
}
