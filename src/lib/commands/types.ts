import type {Outcome} from '../output/outcome.js'
import type {SessionLocation} from '../session/location.js'
import type {Param, ParamType, ValueOf, VerbContext, VerbKind} from '../verbs/types.js'

/** A command's parameter: a verb's `Param`, and what only commands have. */
export interface CommandParam<N extends string = string, T extends ParamType = ParamType> extends Param<N, T> {
  /** The one-letter spelling: `-f` for --follow. */
  char?: string
  /** Given as often as wanted (`--fault=a --fault=b`): its value is the list of them. */
  multiple?: boolean
}

/** The words beyond a command's positional arguments, and every word after `--` (tapir:run's
 *  steps, test's paths, start's flutter run arguments). */
export interface RestWords<N extends string = string> {
  name: N
  description: string
  /** Only after `--`: a word before it that is not a flag is refused. */
  afterDashes?: boolean
}

/** The flags every command that runs against a session takes, as read. */
export type GlobalInput = {
  json?: boolean
  state?: string
  timeout: number
}

/** Always in the input: required, or with a default the runner fills in. */
type Given<P, Defaults> = P extends {required: true} ? true : Defaults extends true ? (P extends {default: unknown} ? true : false) : false
type OneValue<P extends CommandParam> = P extends {options: ReadonlyArray<infer O>} ? O : ValueOf<P['type']>
type ValueFor<P extends CommandParam> = P extends {multiple: true} ? Array<OneValue<P>> : OneValue<P>

/** A command's input, from its params: each by its name and type, required ones always there,
 *  the rest words (when it takes them) by their name. A misspelt name does not compile. */
export type CommandInputOf<P extends readonly CommandParam[], R extends string = never, Defaults = true> = {
  [K in P[number] as Given<K, Defaults> extends true ? K['name'] : never]: ValueFor<K>
} & {
  [K in P[number] as Given<K, Defaults> extends true ? never : K['name']]?: ValueFor<K>
} & (string extends R ? unknown : {[K in R]: string[]}) &
  GlobalInput

/** What a caller hands `runCommand`: a value with a default may be left out (it is filled in). */
export type CommandCallOf<P extends readonly CommandParam[], R extends string = never> = CommandInputOf<P, R, false>

/** What a command runs with, on whichever front end called it. */
export interface CommandContext {
  /** What verbs run with: the session's connection (shared by tapir:run and an MCP server),
   *  progress lines, cancellation and the words of the surface (`origin`). */
  verbs: VerbContext
  /** The session file of this project (or --state's), for a command about the session. */
  location: SessionLocation
  /** tapir's version, for the files it writes (traces, recordings). */
  version: string
  env: NodeJS.ProcessEnv
  /** Every command, for one that runs another (restart, test --fresh, mcp:serve's session tools). */
  commands: readonly AnyCommand[]
}

/** How a command stands to the session file: `locks` holds its lock while it runs (start,
 *  attach, stop), `reads` reads it, `none` does not touch it. */
export type SessionUse = 'locks' | 'reads' | 'none'

/** An MCP tool made from a command (the session tools): its names for an agent, its params in
 *  MCP's words, and the command's input for a call's checked arguments. */
export interface CommandTool<I = unknown> {
  tool: string
  title: string
  summary: string
  kind: VerbKind
  params: readonly Param[]
  input(args: Record<string, ParamValueOrList | undefined>): Omit<I, keyof GlobalInput>
  /** The call answers only once the app answers (start). */
  waitsForApp?: boolean
}

type ParamValueOrList = string | number | boolean | string[]

/** A command as data: its words for help, its params, how it uses the session, its MCP tool
 *  where it has one, and what it does. The one reader (src/cli/command-line.ts) reads its line
 *  from `params`; oclif's class for help is made from it (src/oclif/command-class.ts). */
export interface CommandDef<P extends readonly CommandParam[] = readonly CommandParam[], R extends string = string> {
  id: string
  aliases?: readonly string[]
  summary: string
  description?: string
  examples: readonly string[]
  params: P
  /** The params, by name, that may also come as words, in order. */
  positional?: ReadonlyArray<P[number]['name']>
  rest?: RestWords<R>
  /** Which of the global flags it takes: all of --json, --state and --timeout, only the session's
   *  --state and --timeout (mcp:serve, whose stdout is the protocol's), or none (a command about
   *  files only). */
  globals: 'all' | 'session' | 'none'
  session: SessionUse
  mcp?: CommandTool<CommandCallOf<P, R>>
  run(input: CommandInputOf<P, R>, context: CommandContext): Promise<Outcome>
}

/** Any command, as the list, the reader and the runners hold it: its input is what the reader
 *  read from its params, or what its MCP projection made; each command's own type is checked
 *  where it is defined. */
export interface AnyCommand extends Omit<CommandDef, 'run' | 'mcp'> {
  mcp?: CommandTool
  run(input: GlobalInput & Record<string, unknown>, context: CommandContext): Promise<Outcome>
}

/** Types a command by its own params, so its `run` and its MCP projection get its input type. */
export function defineCommand<const P extends readonly CommandParam[], const R extends string = never>(
  def: CommandDef<P, R>,
): CommandDef<P, R> {
  return def
}

/** A tool argument MCP checked against its param, narrowed to the type the param gave it. */
export const toolArg = {
  string: (value: unknown): string | undefined => (typeof value === 'string' ? value : undefined),
  integer: (value: unknown): number | undefined => (typeof value === 'number' ? value : undefined),
  strings: (value: unknown): string[] => (Array.isArray(value) ? value.filter((item): item is string => typeof item === 'string') : []),
}

/** A command's params, kept as written (names, types, `required`) for its input type. */
export function commandParams<const P extends readonly CommandParam[]>(...list: P): P {
  return list
}
