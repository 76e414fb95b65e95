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
}

export class UsageError extends TapirError {
  constructor(message: string) {
    super(message, 1)
  }
}
