import type {TapirError} from '../errors.js'
import type {ExitCode} from '../output/exit-codes.js'
import type {AppConnection} from '../vm/app-connection.js'

export type ParamType = 'string' | 'integer' | 'number' | 'boolean' | 'string[]'
export type ParamValue = string | number | boolean | string[]
export type Input = Record<string, ParamValue | undefined>
export type Result = Record<string, unknown>

export interface Param {
  name: string
  type: ParamType
  description: string
  required?: boolean
  /** The default the spec documents (MCP and the app). */
  default?: string | number | boolean
  /** The CLI's own default where it differs from the spec's (the original CLI's choice). */
  cliDefault?: string | number | boolean
  /** The app applies the default itself, so it is only sent when given. */
  defaultInApp?: boolean
  options?: readonly string[]
  minimum?: number
  maximum?: number
  /** A required string that may be "" (fill --text="" clears); other required values may not. */
  allowEmpty?: boolean
  /** The CLI's message when a required value is missing. */
  missing?: string
  /** Only on the CLI (e.g. screenshot's --output); not part of the MCP schema. */
  cliOnly?: boolean
  /** Only over MCP (a tool's `json`: on the CLI that is the global --json flag). */
  mcpOnly?: boolean
  /** Used by tapir itself, never sent to the app (e.g. the file a screenshot is written to). */
  local?: boolean
}

/** What the session file says about the app beyond its VM Service. */
export interface AppTarget {
  device?: string
  cdpPort?: number | null
}

/** What a verb needs from the world; the CLI, tapir:run and MCP each provide one. */
export interface VerbContext {
  /** The connection to the running app, opened on first use and reused after. */
  app(): Promise<AppConnection>
  cwd: string
  /** The session's device and Chrome port (perf_run reads the platform from them). */
  target?(): AppTarget
  /** Drops the connection and the session read, so the next app() reads the session file anew (a campaign restarts the app). */
  reset?(): void
  /** The session file in use, for a tapir process a verb starts (a campaign's start and stop). */
  sessionFile?(): string
  /** One progress line of long work (stderr on the CLI; nowhere over MCP). */
  progress?(line: string): void
}

/** How a verb's result reads on the CLI (the exit code is the verb's `exitCode`). */
export interface Report {
  stdout?: string
  stderr?: string[]
}

export interface Verb {
  /** CLI name without the topic: `snap` is `tapir:snap`. */
  name: string
  /** MCP tool name; null for a CLI-only verb. */
  tool: string | null
  summary: string
  /** Where the work happens: `ext.tapir.<method>` in the app, or `vm:evaluate` for the VM's own RPC. */
  dispatch: string
  /** Flags of a typical call, for help and the README (`--ref=e5`). */
  example?: string
  params: Param[]
  /** Params the CLI also takes as positional arguments, in order (`perf_compare a.json b.json`). */
  positional?: readonly string[]
  /** Read-only verbs change nothing in the app; destructive ones may end or reset it. */
  annotations: {readOnly?: boolean; destructive?: boolean}
  /** How long the app may legitimately take for this input (its own timeout), in ms. */
  waitsMs?(input: Input): number
  /** Extra checks across params, before anything is sent. Throws UsageError. */
  validate?(input: Input): void
  execute(context: VerbContext, input: Input): Promise<Result>
  /** The CLI's reading of a result (without --json). */
  report(result: Result, input: Input): Report
  /** The text an MCP call returns, when it is not the result's JSON. */
  mcpText?(result: Result, input: Input): string
  /** When an MCP call answers with a result yet fails (perf_compare's error-level regression). */
  mcpIsError?(result: Result): boolean
  /** When the CLI prints the JSON envelope even without --json (e.g. a snapshot was asked for). */
  prefersJson?(input: Input): boolean
  /** On the CLI, an app error that is really a soft failure of this verb: these lines, exit 1 (not 3). */
  softFailure?(error: TapirError): Report | undefined
  /** Exit code for a result, shared by the summary and --json output. */
  exitCode?(result: Result, input: Input, printedJson: boolean): ExitCode
}
