import {TapirError, type Worded} from '../errors.js'

/** Chrome or its DevTools port is missing or misbehaving: a local failure (exit 1), as the original. */
export class CdpError extends TapirError {
  constructor(message: string | Worded) {
    super(message, 'local')
  }
}

export function cdpNotEnabled(): CdpError {
  return new CdpError((words) =>
    words.only(
      'CDP not enabled. Run `tapir start --device=sim --cdp-port=9222` first to launch Chrome with a debug port, or `tapir attach --uri <VM Service URI> --cdp-port <port>` for a Chrome you started with --remote-debugging-port.',
      'CDP not enabled. The session records no Chrome DevTools port: start the app with tapir_start and a cdpPort, or attach the Chrome you started with remote debugging (tapir_attach with its cdpPort).',
    ),
  )
}

export const reason = (error: unknown): string => (error instanceof Error ? error.message : String(error))
