import {TapirError} from '../errors.js'

/** Chrome or its DevTools port is missing or misbehaving: a local failure (exit 1), as the original. */
export class CdpError extends TapirError {
  constructor(message: string) {
    super(message, 'local')
  }
}

export function cdpNotEnabled(): CdpError {
  return new CdpError(
    'CDP not enabled. Run `tapir start --device=sim --cdp-port=9222` first to launch Chrome with a debug port, or `tapir attach --uri <VM Service URI> --cdp-port <port>` for a Chrome you started with --remote-debugging-port.',
  )
}

export const reason = (error: unknown): string => (error instanceof Error ? error.message : String(error))
