/** How long a DevTools exchange may still take: a verb's deadline (its --timeout, shared by the
 *  listing, the connection and every call), or a fresh limit for one exchange. */
export interface TimeLimit {
  readonly totalMs: number
  remainingMs(): number
}

/** How long one DevTools exchange may take when no verb deadline bounds it: a page paused at a
 *  breakpoint, or busy, never answers. */
export const CDP_CALL_MS = 30_000

/** A limit of `ms` from now. */
export function limitOf(ms: number): TimeLimit {
  const endsAt = Date.now() + ms
  return {totalMs: ms, remainingMs: () => Math.max(0, endsAt - Date.now())}
}
