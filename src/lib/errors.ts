import type {ExitCode} from './output/exit-codes.js'

/** A failure a user can act on: one line of text and the exit code it maps to. */
export class TapirError extends Error {
  constructor(
    message: string,
    readonly exitCode: ExitCode,
    /** Extra JSON for `--json` output (e.g. the app's error envelope). */
    readonly details?: Record<string, unknown>,
  ) {
    super(message)
  }

  /** The `type` of the app's error envelope (stale, not_found, timeout, ...), when it sent one. */
  get envelopeType(): string | undefined {
    const type = (this.details?.envelope as {type?: unknown} | undefined)?.type
    return typeof type === 'string' ? type : undefined
  }
}

export class UsageError extends TapirError {
  constructor(message: string) {
    super(message, 1)
  }
}
