import type {ExitCode} from './output/exit-codes.js'

/** Where a call came from: each names parameters its own way. */
export type Surface = 'cli' | 'mcp'

/** A parameter as a surface names it: a flag on the CLI, the argument's own name over MCP. */
export const PARAM_NAME: Readonly<Record<Surface, (param: string) => string>> = {
  cli: (param) => `--${param}`,
  mcp: (param) => param,
}

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

  /** The message as the surface a call came from words it. */
  messageFor(_surface: Surface): string {
    return this.message
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
