import type {CdpPage} from './page.js'

export type HoldEnd = 'interrupted' | 'chrome-gone'

/** How often a holder looks whether it has to apply its override again. */
const TICK_MS = 200

/** Keeps the session (and every override sent through it) open until `signal` aborts or Chrome
 *  closes the session; meanwhile runs `tick` (one at a time, every TICK_MS), and waits for the
 *  last one before it resolves. */
export async function holdUntil(page: CdpPage, signal: AbortSignal, tick?: () => Promise<void>): Promise<HoldEnd> {
  if (signal.aborted) return 'interrupted'
  const interrupted = new Promise<HoldEnd>((resolve) => signal.addEventListener('abort', () => resolve('interrupted'), {once: true}))
  let done = false
  let running: Promise<void> = Promise.resolve()
  let timer: NodeJS.Timeout | undefined
  const schedule = (): void => {
    if (done || !tick) return
    timer = setTimeout(() => {
      running = tick().finally(schedule)
    }, TICK_MS)
  }
  schedule()
  const ended = await Promise.race([interrupted, page.whenGone().then((): HoldEnd => 'chrome-gone')])
  done = true
  clearTimeout(timer)
  await running.catch(() => {})
  return ended
}
