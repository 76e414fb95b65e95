import {TapirError} from '../errors.js'

/** The exit codes tapir uses, mirroring the original Dart CLI. */
export const EXIT = {
  /** done */
  ok: 0,
  /** usage or validation error, no session, or a soft failure the verb checks */
  failed: 1,
  /** the app answered with an error, or the connection to it failed */
  appError: 3,
} as const

export type ExitCode = (typeof EXIT)[keyof typeof EXIT]

/** The one mapping from a failure to its exit code: 1 for the caller's or this machine's, 3 for
 *  the app's (its error answer, or no answer at all). An error tapir did not foresee is read as
 *  the app's, as the original CLI did. */
export function exitCodeFor(error: unknown): ExitCode {
  if (!(error instanceof TapirError)) return EXIT.appError
  return error.kind === 'usage' || error.kind === 'local' ? EXIT.failed : EXIT.appError
}
