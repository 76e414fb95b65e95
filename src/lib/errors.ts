/** Where a call came from: each names parameters its own way. */
export type Surface = 'cli' | 'mcp'

/** A parameter as a surface names it: a flag on the CLI, the argument's own name over MCP. */
export const PARAM_NAME: Readonly<Record<Surface, (param: string) => string>> = {
  cli: (param) => `--${param}`,
  mcp: (param) => param,
}

/**
 * Whose failure it is. `usage`: the call itself is wrong; `local`: something on this machine (no
 * session, a file, a port, no Chrome); `app`: the app answered with an error; `connection`: the
 * app could not be reached, or stopped answering. Only the output layer turns a kind into an exit
 * code (output/exit-codes.ts).
 */
export type FailureKind = 'usage' | 'local' | 'app' | 'connection'

/** A failure a user can act on: one line of text and what kind of failure it is. */
export class TapirError extends Error {
  constructor(
    message: string,
    readonly kind: FailureKind,
    /** Extra JSON for `--json` output (e.g. the app's error envelope). */
    readonly details?: Record<string, unknown>,
  ) {
    super(message)
  }

  /** Whether the message is a heading and lines of tapir's own (every problem of a file), to
   *  print as lines; any other message is one line, since it may hold text from the app. */
  get multiline(): boolean {
    return false
  }

  /** The message as the surface a call came from words it. */
  messageFor(_surface: Surface): string {
    return this.message
  }

  /** The `type` of the app's error envelope (stale, not_found, timeout, ...), when it sent one. */
  get envelopeType(): string | undefined {
    const envelope = this.details?.envelope
    const type = typeof envelope === 'object' && envelope !== null && 'type' in envelope ? envelope.type : undefined
    return typeof type === 'string' ? type : undefined
  }
}

export class UsageError extends TapirError {
  constructor(message: string) {
    super(message, 'usage')
  }
}

/** A usage error about parameters, worded with each surface's names for them:
 *  `new ParamError((name) => `${name('rect')} needs ${name('ref')}.`)`. */
export class ParamError extends UsageError {
  constructor(private readonly compose: (name: (param: string) => string) => string) {
    super(compose(PARAM_NAME.cli))
  }

  override messageFor(surface: Surface): string {
    return this.compose(PARAM_NAME[surface])
  }
}

/** What a caught value says: an Error's message, or the value itself as text. */
export function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error)
}

/** The code Node gives a failed system call (`ENOENT`, `EEXIST`, ...), if it has one. */
export function errorCode(error: unknown): string | undefined {
  return error instanceof Error && 'code' in error && typeof error.code === 'string' ? error.code : undefined
}
