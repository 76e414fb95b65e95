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
