/** Where a call came from: each names parameters its own way. */
export type Surface = 'cli' | 'mcp'

/** A parameter as a surface names it: a flag on the CLI, the argument's own name over MCP. */
export const PARAM_NAME: Readonly<Record<Surface, (param: string) => string>> = {
  cli: (param) => `--${param}`,
  mcp: (param) => param,
}

type Value = string | number | boolean

/** How a surface words what a user gives and calls, so one message reads right on each. */
export interface Words {
  /** A parameter: `--rect` on the CLI, `rect` over MCP. */
  param(name: string): string
  /** A parameter given a value: `--list` or `--platform=sim`; `list: true` or `platform: "sim"`. */
  arg(name: string, value?: Value): string
  /** A verb, with arguments: `tapir:device --list`; `tapir_device_profile with list: true`. */
  call(verb: string, args?: Record<string, Value>): string
  /** What to do with a call: `Run` it on the CLI, `Call` it over MCP. */
  run: string
  /** What only one surface has words for (a CLI flag like --timeout, a shell command). */
  only(cli: string, mcp: string): string
}

const argList = (args: Record<string, Value>, word: (name: string, value: Value) => string) =>
  Object.entries(args).map(([name, value]) => word(name, value))

const cliArg = (name: string, value: Value = true) => (value === true ? `--${name}` : `--${name}=${value}`)
const mcpArg = (name: string, value: Value = true) => `${name}: ${JSON.stringify(value)}`

export const CLI_WORDS: Words = {
  param: PARAM_NAME.cli,
  arg: cliArg,
  call: (verb, args = {}) => [`tapir:${verb}`, ...argList(args, cliArg)].join(' '),
  run: 'Run',
  only: (cli) => cli,
}

/** MCP's words, naming a verb by its tool: `toolOf` reads the tool's name off the verb's
 *  definition (verbs/words.ts), so a tool named otherwise than `tapir_<verb>` is said once. */
export function mcpWords(toolOf: (verb: string) => string): Words {
  return {
    param: PARAM_NAME.mcp,
    arg: mcpArg,
    call: (verb, args = {}) => {
      const given = argList(args, mcpArg)
      return `${toolOf(verb)}${given.length > 0 ? ` with ${given.join(', ')}` : ''}`
    },
    run: 'Call',
    only: (_cli, mcp) => mcp,
  }
}

/** A message worded for each surface: `(words) => `${words.run} ${words.call('snap')} first.``. */
export type Worded = (words: Words) => string

/**
 * Whose failure it is. `usage`: the call itself is wrong; `local`: something on this machine (no
 * session, a file, a port, no Chrome); `app`: the app answered with an error; `connection`: the
 * app could not be reached, or stopped answering. Only the output layer turns a kind into an exit
 * code (output/exit-codes.ts).
 */
export type FailureKind = 'usage' | 'local' | 'app' | 'connection'

/** A failure a user can act on: one line of text and what kind of failure it is. */
export class TapirError extends Error {
  private readonly worded?: Worded

  constructor(
    /** The message, or how to word it on each surface when it names a parameter or a command. */
    message: string | Worded,
    readonly kind: FailureKind,
    /** Extra JSON for `--json` output (e.g. the app's error envelope). */
    readonly details?: Record<string, unknown>,
  ) {
    super(typeof message === 'string' ? message : message(CLI_WORDS))
    if (typeof message !== 'string') this.worded = message
  }

  /** Whether the message is a heading and lines of tapir's own (every problem of a file), to
   *  print as lines; any other message is one line, since it may hold text from the app. */
  get multiline(): boolean {
    return false
  }

  /** The message in the words of the surface a call came from (verbs/words.ts `WORDS`). */
  messageFor(words: Words): string {
    return this.worded ? this.worded(words) : this.message
  }

  /** The `type` of the app's error envelope (stale, not_found, timeout, ...), when it sent one. */
  get envelopeType(): string | undefined {
    const envelope = this.details?.envelope
    const type = typeof envelope === 'object' && envelope !== null && 'type' in envelope ? envelope.type : undefined
    return typeof type === 'string' ? type : undefined
  }
}

export class UsageError extends TapirError {
  constructor(message: string | Worded) {
    super(message, 'usage')
  }
}

/** A usage error about parameters, worded with each surface's names for them:
 *  `new ParamError((name) => `${name('rect')} needs ${name('ref')}.`)`. */
export class ParamError extends UsageError {
  constructor(compose: (name: (param: string) => string) => string) {
    super((words) => compose(words.param))
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
