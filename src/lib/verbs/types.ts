import type {ChromeEndpoint} from '../cdp/page.js'
import type {TapirError} from '../errors.js'
import type {Shape} from '../shape.js'
import type {AppConnection} from '../vm/app-connection.js'
import type {Deadline} from '../vm/deadline.js'
import type {Slicer} from '../vm/sliced-waits.js'
import type {AppNotes} from '../vm/tapir-answers.js'

type ValueTypes = {string: string; integer: number; number: number; boolean: boolean; 'string[]': string[]}
export type ParamType = keyof ValueTypes
export type ValueOf<T extends ParamType> = ValueTypes[T]
export type ParamValue = ValueOf<ParamType>
/** Any verb's input, as the front ends build it before the verb's own type applies. */
export type Input = Record<string, ParamValue | undefined>
/** Any verb's result: a JSON object, whose notes from the app (frames not produced, render
 *  errors), when it carries them, are typed. Each verb's own result type narrows it. */
export type Result = AppNotes

export interface Param<N extends string = string, T extends ParamType = ParamType> {
  name: N
  type: T
  /** What the CLI's help and the README's command reference say of it, in full. */
  description: string
  /** The few words tools/list gives it, in MCP terms; absent where its name, type and enum say it all. */
  brief?: string
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
  /** The longest string, or string of a list, it takes (characters). */
  maxLength?: number
  /** The most items a list takes. */
  maxItems?: number
  /** A required string that may be "" (fill --text="" clears); other required values may not. */
  allowEmpty?: boolean
  /** It names a widget by its ref (eN, qN), as an action's target or as the region a read is
   *  scoped to (`within`, "the e<N> ref of the region" in the reference): a tapir:run step may
   *  give it a bound `@name`, and a recording turns it into a find step where the verb's calls
   *  are steps. */
  widgetRef?: boolean
  /** The CLI's message when a required value is missing. */
  missing?: string
  /** Only on the CLI (e.g. screenshot's --output); not part of the MCP schema. */
  cliOnly?: boolean
  /** Only over MCP (a tool's `json`: on the CLI that is the global --json flag). */
  mcpOnly?: boolean
  /** tapir's own addition to a tool the reference defines (perf_run's and perf_compare's
   *  `html`): on every surface, and listed as an addition by the contract test. */
  addition?: boolean
  /** Used by tapir itself, never sent to the app (e.g. the file a screenshot is written to). */
  local?: boolean
  /** Shapes only the reply (the snapshot after an action), not what the call does to the app: a
   *  recording leaves it out of the step. */
  replyOnly?: boolean
  /** What a bare `--name` (no value) stands for on the CLI: `expect --a11y` is `--a11y=all`. */
  bare?: string
  /** On the CLI the value goes to the app as typed, a string with no parsing or checks: the
   *  app answers for it (observe's options, as its command page says). */
  passThrough?: boolean
}

/** Present on every surface that reaches the verb: required and not CLI-only (MCP lacks those). */
type AlwaysGiven<P> = P extends {required: true} ? (P extends {cliOnly: true} ? false : true) : false

/** The input a verb's code sees, derived from its parameter definitions: each parameter by its
 *  name and with its type, required ones always present. A misspelt name does not compile. */
export type InputOf<P extends readonly Param[]> = {
  [K in P[number] as AlwaysGiven<K> extends true ? K['name'] : never]: InputValue<K>
} & {
  [K in P[number] as AlwaysGiven<K> extends true ? never : K['name']]?: InputValue<K>
}

/** A pass-through parameter reaches the verb as the CLI's raw text, or typed from MCP. */
type InputValue<P extends Param> = P extends {passThrough: true} ? ValueOf<P['type']> | string : ValueOf<P['type']>

/** What the session file says about the app beyond its VM Service. */
export interface AppTarget {
  device?: string
  cdpPort?: number | null
}

/** What a verb needs from the world; the CLI, tapir:run and MCP each provide one. */
export interface VerbContext {
  /** The connection to the running app, opened on first use and reused after; opening it
   *  counts against the deadline of the verb that needs it. */
  app(deadline: Deadline): Promise<AppConnection>
  /** The session's Chrome DevTools endpoint, or undefined when it records no cdpPort (or there is no session). */
  chrome(): ChromeEndpoint | undefined
  /** Lines shown while a verb still runs (the CLI writes them to stderr at once). */
  progress?(line: string): void
  /** Aborts when the user stops the CLI (Ctrl-C, SIGTERM, SIGHUP); only the CLI offers it. */
  interrupted?(): AbortSignal
  /** Aborts when the caller cancels this one call (MCP's notifications/cancelled): a verb of
   *  many steps (perf_run) stops at its next safe point. */
  cancelled?: AbortSignal
  /** The viewport holders of the session's Chrome page, shared by every tapir process on it. */
  holdStack?<T>(held: Shape<T>): HoldStack<T>
  /** The session's device and Chrome port (perf_run reads the platform from them). */
  target?(): AppTarget
  /** Drops the connection and the session read, so the next app() reads the session file anew (a campaign restarts the app). */
  reset?(): void
  /** Hot reload or hot restart of the session's app (through the supervisor tapir started, or
   *  the services `flutter run` registered); rejects with ReloadRejected on a compile error. */
  reload?(kind: 'reload' | 'restart', deadline: Deadline): Promise<{via: string; message: string; restarted?: boolean}>
  /** The session file in use, for a tapir process a verb starts (a campaign's start and stop). */
  sessionFile?(): string
  /** find's zero-install handles, in a file beside the session that every tapir process on it
   *  shares (zero/handles.ts). */
  handleState?(): SharedState
  /** The zero-install perf session's state, kept beside the session file so every tapir process
   *  on the session sees it (src/lib/session/perf-state.ts). */
  perfState?(): SharedState
  cwd: string
  /** --timeout: how long one verb may take, on top of its own wait in the app. */
  timeoutMs: number
  /** The recording a call of `verb` goes into, when one is on (tapir record, mcp:serve --record)
   *  and the verb is one it sees. */
  recorder?(verb: Verb): CallRecorder | undefined
  /** Where the call came from, for the recording's comment: the CLI (and tapir:run) unless MCP says so. */
  origin?: 'cli' | 'mcp'
  /** A tapir:run step's words that held `${env.NAME}`, each as the verb got it and as written:
   *  a recording writes the word as written, never the value. */
  envWords?: ReadonlyArray<readonly [given: string, written: string]>
  /** The refs this context has seen, for what a ref the app no longer knows was (ref-memory.ts). */
  refs?: RefTracker
}

/** Sees every result's snapshot, and explains an error about a ref it saw. */
export interface RefTracker {
  note(result: Result): void
  /** The error, or one that says what the ref was and which widgets are that now. */
  explain(error: unknown, input: Input): unknown
}

/** Sees the calls a recording is made of (record/recorder.ts). */
export interface CallRecorder {
  /** Before the verb runs, while the widgets its refs name are still there: what to do once it
   *  has succeeded (append its steps), or undefined when the call is not recorded. */
  begin(verb: Verb, input: Input, call: VerbCall): Promise<((result: Result) => Promise<void>) | undefined>
}

/** One run of one verb: its context, bound to the verb's one overall deadline. */
export interface VerbCall extends Omit<VerbContext, 'app' | 'recorder'> {
  app(): Promise<AppConnection>
  deadline: Deadline
  /** The app under a deadline of the verb's own, for a verb whose run spans many calls (perf_run). */
  appWithin(deadline: Deadline): Promise<AppConnection>
}

/** How a verb's result reads on the CLI (whether it is a soft failure is the verb's `failed`). */
export interface Report {
  stdout?: string
  stderr?: string[]
}

/** read: changes nothing in the app; set: acts on it, and doing it again changes nothing more
 *  (fill, navigate); action: acts on it, each time anew (tap, scroll); destructive: may end or
 *  reset it. The MCP annotations follow from it. */
export type VerbKind = 'read' | 'set' | 'action' | 'destructive'

/** What every tool has, whatever runs it: the MCP schema and the contract test read this. */
export interface ToolShape {
  /** MCP tool name; null for a CLI-only verb. */
  tool: string | null
  /** Its name for people, a few words (MCP's tool title). */
  title: string
  /** What it does and when to reach for it, in words true on every surface (MCP's tool description). */
  summary: string
  params: readonly Param[]
  kind: VerbKind
  /** A tool of tapir's own that the reference does not define (expect): listed as an addition. */
  addition?: boolean
}

/**
 * What an app on Dusk 0.0.1 (`ext.dusk.*`, tapir's predecessor) gets of a verb, written on the
 * verb as its `dusk`: the verb layer (dusk/translate.ts, dusk/drive.ts), the MCP server's dusk catalogue,
 * the README and the tests read it.
 *
 * - `driven`: the verb calls `ext.dusk.<method>`. Each of its parameters is `sent` (0.0.1 has it,
 *   under `as` when named otherwise), done by `tapir` itself around the call (`how` says what),
 *   or `refused`: 0.0.1 lacks it, so a value other than its default is refused with exit 1 and
 *   the default is simply not sent.
 * - `refused`: 0.0.1 has no such call; the verb exits 1 naming it.
 * - `unchanged`: the verb never calls into the app's package (Chrome, files, the flutter tool).
 */
export type DuskFacts<N extends string = string> =
  | {on: 'driven'; method: string; params: DuskParamRules<N>; note?: string; tool: DuskToolFacts<N>}
  | {on: 'refused'}
  | {on: 'unchanged'; note: string; tool: DuskToolFacts<N> | null}

export type ParamRule = {rule: 'sent'; as?: string} | {rule: 'tapir'; how: string} | {rule: 'refused'}

/** A rule for every parameter of the verb, by its name. */
export type DuskParamRules<N extends string> = {readonly [K in N]: ParamRule}

/** A parameter of the verb's dusk_* tool: one of the verb's (by its name, or `from` it under
 *  another), with 0.0.1's own type, required flag, default or choices where they differ. */
export type DuskParamSpec<N extends string> =
  N | readonly [name: N, changes: Partial<Param>] | readonly [name: string, changes: Partial<Param> & {from: N}]

/** The verb under 0.0.1's tool name, parameters and answer: one of the 31 dusk_* tools
 *  (`mcp:serve --catalogue=dusk`, mcp/dusk-catalogue.ts). */
export interface DuskToolFacts<N extends string = string> {
  tool: `dusk_${string}`
  summary: string
  /** Its name for people, where it is not the verb's. */
  title?: string
  params?: readonly DuskParamSpec<N>[]
  /** The verb result's keys under 0.0.1's names (`logs` are `entries`). */
  renamed?: Readonly<Record<string, string>>
  /** Arguments 0.0.1 echoes in its answer, kept where the verb's result lacks them. */
  echoed?: readonly N[]
  /** The answer as 0.0.1 shapes it, where renaming top-level keys is not enough. */
  reshape?(answer: Record<string, unknown>): Record<string, unknown>
  /** The text of a tool whose 0.0.1 answer is not JSON (dusk_snap's YAML). */
  text?(result: Result): string
  /** Checks 0.0.1's own rules on the tool's arguments, before they become the verb's. */
  validate?(input: Record<string, unknown>): void
  /** A result that 0.0.1 answers as an error (dusk_wait_for's timeout): its message. */
  failure?(result: Result, input: Record<string, unknown>): string | undefined
}

/** The names of a verb's parameters, from its input type. */
type ParamNameOf<I> = keyof I & string

/** Where a verb may stand in a tapir:run (run/plan.ts): `any` step; only the `last`, since it
 *  ends (or restarts) the app; `never`, since it does not act on the connected app. */
export type StepRule = 'any' | 'last' | 'never'

/** What a recording (record/recorder.ts) makes of a successful call of a verb:
 * - `step`: a tapir:run step, its refs turned into find or observe steps. The text of `secret`
 *   may be one (a password field's): written as `${env.NAME}`. `waitAfter` names the params of a
 *   wait the verb does after itself (tap --until): written as a wait step of its own.
 * - `read`: no step, but what it answers names widgets in later steps: snap's refs, observe's
 *   candidates, find's handles; the recording keeps them.
 * - `comment`: a comment saying the call is left out, and why.
 * - `nothing`: a read the recording never looks at. */
export type RecordRule<N extends string = string> =
  | {as: 'step'; secret?: N; waitAfter?: {text: N; timeoutMs: N}}
  | {as: 'read'}
  | {as: 'comment'; why: 'a read' | 'not a tapir:run step'}
  | {as: 'nothing'}

/** A verb with its input type `I` (from its params) and its result type `R`: from `result`, the
 *  shape of the app's answer for a verb the app answers, else from what its `execute` returns. */
export interface Verb<I = Input, R extends Result = Result> extends ToolShape {
  /** CLI name without the topic: `snap` is `tapir:snap`. */
  name: string
  /** More than the summary says, for the CLI's help and the README's command reference (the CLI's
   *  own ways, the longer explanation); tools/list leaves it out. */
  details?: string
  /** The CLI's exit rule where a result can exit 1 ("exits 1 when ..."), added to the CLI's summary only. */
  cliExit?: string
  /** Where the work happens: `ext.tapir.<method>` in the app, `vm:evaluate` for the VM's own RPC,
   *  or `cdp:<what>` in the Chrome that shows a web app. */
  dispatch: string
  /** Flags of a typical call, for help and the README (`--ref=e5`). */
  example?: string
  /** Shell lines that bring a freshly started sim to what the example acts on (a screen and its
   *  refs, a file); the README shows them above the example, and its test runs both. */
  exampleBefore?: readonly string[]
  /** The example runs with no app recorded (it needs none, or starts its own). */
  exampleWithoutApp?: boolean
  /** Params the CLI also takes as positional arguments, in order (`perf_compare a.json b.json`). */
  positional?: readonly string[]
  /** How long the app may legitimately take for this input (its own timeout), in ms. */
  waitsMs?(input: I): number
  /** How a call that waits in the app is asked for in slices where one call may not last that
   *  long (DWDS's WebSocket mode), from the params sent; absent: the verb does not wait there. */
  slices?: Slicer
  /** Extra checks across params, before anything is sent. Throws UsageError. */
  validate?(input: I): void
  /** What the app answers this verb with (`ext.tapir.<method>`), checked as the answer enters:
   *  a wrong shape is a malformed answer (exit 3) naming the field. Absent for a verb tapir
   *  answers itself (Chrome, files, several calls): its type is what `execute` returns. */
  result?: Shape<R>
  execute(call: VerbCall, input: I): Promise<R>
  /** Whether this call asks the app, where not every call does (the CLI's screenshot of a web
   *  app is taken through Chrome); absent: every call does. */
  asksApp?(input: I, call: VerbCall): boolean
  /** What an app on Dusk 0.0.1 gets of it, and its dusk_* tool. */
  dusk: DuskFacts<ParamNameOf<I>>
  /** Where it may stand in a tapir:run. */
  step: StepRule
  /** What a recording makes of its calls. */
  record: RecordRule<ParamNameOf<I>>
  /** The CLI's reading of a result (without --json). */
  report(result: R, input: I): Report
  /** The text an MCP call returns, when it is not the result's JSON. */
  mcpText?(result: R, input: I): string
  /** The result field that holds a base64 image: MCP answers it as an image block, the rest as text. */
  mcpImage?: string
  /** When an MCP call answers with a result yet fails (perf_compare's error-level regression). */
  mcpIsError?(result: R): boolean
  /** When the CLI prints the JSON envelope even without --json (e.g. a snapshot was asked for). */
  prefersJson?(input: I): boolean
  /** On the CLI, an app error that is really a soft failure of this verb: these lines (exit 1, not 3). */
  softFailure?(error: TapirError, input: I): Report | undefined
  /** Whether a result is a soft failure the verb checks (wait not matched, ...): the output layer
   *  then exits 1, with the summary and with --json alike. */
  failed?(result: R, input: I, printedJson: boolean): boolean
}

/** A verb whose code is typed by its own parameters and its own result. */
export type VerbOf<P extends readonly Param[], R extends Result = Result> = Verb<InputOf<P>, R> & {params: P}

/** The holders of one page's override, across tapir processes: the newest live one's is in
 *  force. Each method runs its callback under the holders' lock. */
export interface HoldStack<T> {
  /** Adds this process on top holding `held` and runs `apply`; returns the stack's key. */
  push(held: T, apply: () => Promise<void>): Promise<string>
  /** When the stack changed since `key` and this process is on top, runs `apply`; returns the new key. */
  reapply(key: string, apply: () => Promise<void>): Promise<string>
  /** Runs `undo`, then takes this process off the stack. */
  leave(undo: () => Promise<void>): Promise<void>
  /** When the holder on top is gone (killed outright), runs `clear` with what it held and drops it. */
  clearDead(clear: (held: T) => Promise<void>): Promise<boolean>
}

/** A JSON state kept beside the session and shared by every tapir process on it: read as it is,
 *  or changed read-modify-write under its lock, so two processes never change it at once. */
export interface SharedState {
  /** The state, or undefined when there is none (or it is not JSON). */
  read(): unknown
  /** Runs `change` on the state as it is now, writes what it gives back, and answers its answer. */
  update<T>(change: (state: unknown) => {state: unknown; answer: T}): Promise<T>
}
