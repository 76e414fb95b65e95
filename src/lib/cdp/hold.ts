import type {CdpPage} from './page.js'

export type HoldEnd = 'interrupted' | 'chrome-gone'

/** Keeps the session (and every override sent through it) open until `signal` aborts or Chrome
 *  closes the session. */
export async function holdUntil(page: CdpPage, signal: AbortSignal): Promise<HoldEnd> {
  if (signal.aborted) return 'interrupted'
  const interrupted = new Promise<HoldEnd>((resolve) => signal.addEventListener('abort', () => resolve('interrupted'), {once: true}))
  return Promise.race([interrupted, page.whenGone().then((): HoldEnd => 'chrome-gone')])
}
