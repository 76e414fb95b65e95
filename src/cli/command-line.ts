import type {AnyCommand, GlobalInput} from '../lib/commands/types.js'
import {UsageError, type Words} from '../lib/errors.js'
import {nearestName} from '../lib/nearest-name.js'
import {missingMessage} from '../lib/verbs/input.js'
import type {Param, ParamValue, Verb} from '../lib/verbs/types.js'
import {GLOBAL_FLAG_RULES, flagDefault, flagParams, isRequiredFlag, kebabCase, readList, readNumber} from './flag-rules.js'

/** A verb's command line as read: its flags (the global ones among them) and its positional
 *  arguments, each still to be checked against its param (verb-outcome.ts). */
export interface VerbLine {
  flags: Record<string, ParamValue | undefined> & GlobalInput
  args: Record<string, string>
}

/** A command's line as read: every flag and argument by its param's name, and the rest words. */
export interface CommandLine {
  values: Record<string, ParamValue | string[] | undefined> & GlobalInput
  rest: string[]
}

/** `--help` or `-h` where a flag goes: the line asks for help, which oclif prints. */
export class HelpAsked extends Error {
  constructor() {
    super('help asked')
  }
}

/** A word the command takes neither as a flag nor as an argument; `word` as given. */
class StrayWord extends Error {
  constructor(
    message: string,
    readonly word: string,
  ) {
    super(message)
  }
}

/** One flag as the reader knows it. */
interface FlagRule {
  name: string
  type: Param['type'] | 'passThrough'
  options?: readonly string[]
  min?: number
  max?: number
  default?: ParamValue
  /** Its absence is refused, in the verb's own words. */
  missing?: string
  /** The value a bare `--name` stands for. */
  bare?: string
  /** Its absence is refused in oclif's words. */
  required?: boolean
  char?: string
  multiple?: boolean
}

/** What the reader needs of a line's command. */
interface LineRules {
  /** The command's own flags. */
  flags: FlagRule[]
  /** Which of --json, --state and --timeout are read too. */
  globals: 'all' | 'session' | 'none'
  positional: readonly string[]
  /** Its required positional arguments, and the words that name each when it is missing. */
  required?: ReadonlyMap<string, string>
  /** The values a positional argument may take, where its param lists them (`record start|stop`). */
  argOptions?: ReadonlyMap<string, readonly string[]>
  /** Words beyond the positional ones: taken (`anywhere`), only after `--`, or refused. */
  rest: 'anywhere' | 'after-dashes' | 'none'
  /** `--help` and `-h` where a flag goes ask for help (the command line; never a step). */
  help: boolean
}

interface Spelling {
  rule: FlagRule
  negated: boolean
}

const GLOBAL_RULES: readonly FlagRule[] = [
  {name: 'json', type: GLOBAL_FLAG_RULES.json.type},
  {name: 'state', type: GLOBAL_FLAG_RULES.state.type},
  {name: 'timeout', type: 'integer', min: GLOBAL_FLAG_RULES.timeout.min, default: GLOBAL_FLAG_RULES.timeout.default},
]

/** Every spelling the line may use for a flag: its name, its kebab-case alias, its char and, for
 *  a boolean of the command's own, `no-` before either (the global --json has none). */
function spellings(rules: LineRules): Map<string, Spelling> {
  const globals = GLOBAL_RULES.filter((rule) => rules.globals === 'all' || (rules.globals === 'session' && rule.name !== 'json'))
  const spelt = new Map<string, Spelling>(globals.map((rule) => [rule.name, {rule, negated: false}]))
  for (const rule of rules.flags) {
    const words = new Set([rule.name, kebabCase(rule.name)])
    for (const word of words) spelt.set(word, {rule, negated: false})
    if (rule.type === 'boolean') for (const word of words) spelt.set(`no-${word}`, {rule, negated: true})
  }
  return spelt
}

/** A flag's text as its value; throws, in the words oclif's parser used, when it is not one. */
function valueOf(rule: FlagRule, text: string): ParamValue {
  if (rule.options && !rule.options.includes(text))
    throw new Error(`Expected --${rule.name}=${text} to be one of: ${rule.options.join(', ')}`)
  switch (rule.type) {
    case 'integer': {
      if (!/^-?\d+$/.test(text)) throw new Error(`Parsing --${rule.name}: Expected an integer but received: ${text}`)
      const value = Number.parseInt(text, 10)
      if (rule.min !== undefined && value < rule.min)
        throw new Error(`Parsing --${rule.name}: Expected an integer greater than or equal to ${rule.min} but received: ${text}`)
      if (rule.max !== undefined && value > rule.max)
        throw new Error(`Parsing --${rule.name}: Expected an integer less than or equal to ${rule.max} but received: ${text}`)
      return value
    }
    case 'number':
      try {
        return readNumber(text)
      } catch (error) {
        throw new Error(`Parsing --${rule.name}: ${error instanceof Error ? error.message : String(error)}`, {cause: error})
      }
    case 'string[]':
      return readList(text)
    default:
      return text
  }
}

/** The rules of a catalogue verb's line. */
function verbRules(verb: Verb, help: boolean): LineRules {
  return {
    flags: flagParams(verb).map((param) => {
      const fallback = flagDefault(param)
      return {
        name: param.name,
        type: param.passThrough ? 'passThrough' : param.type,
        ...(param.options && !param.passThrough ? {options: param.options} : {}),
        ...(fallback === undefined ? {} : {default: fallback}),
        ...(isRequiredFlag(param, verb) ? {missing: missingMessage(param)} : {}),
        ...(param.bare === undefined ? {} : {bare: param.bare}),
      }
    }),
    globals: 'all',
    positional: verb.positional ?? [],
    rest: 'none',
    help,
  }
}

/** The rules of a command's line, from its params. */
function commandRules(command: AnyCommand): LineRules {
  const positional: readonly string[] = command.positional ?? []
  return {
    flags: command.params
      .filter((param) => !positional.includes(param.name))
      .map((param) => ({
        name: param.name,
        type: param.type,
        ...(param.options ? {options: param.options} : {}),
        ...(param.minimum === undefined ? {} : {min: param.minimum}),
        ...(param.maximum === undefined ? {} : {max: param.maximum}),
        ...(param.default === undefined || param.multiple ? {} : {default: param.default}),
        ...(param.required ? {required: true} : {}),
        ...(param.char === undefined ? {} : {char: param.char}),
        ...(param.multiple ? {multiple: true} : {}),
      })),
    globals: command.globals,
    positional,
    required: new Map(
      command.params.filter((param) => param.required && positional.includes(param.name)).map((param) => [param.name, param.description]),
    ),
    argOptions: new Map(
      command.params.flatMap((param) =>
        param.options && positional.includes(param.name) ? [[param.name, param.options] satisfies [string, readonly string[]]] : [],
      ),
    ),
    rest: command.rest === undefined ? 'none' : command.rest.afterDashes ? 'after-dashes' : 'anywhere',
    help: true,
  }
}

/** What the reader gives back before a front end shapes it. */
interface Read {
  flags: Record<string, ParamValue | string[]> & GlobalInput
  args: Record<string, string>
  rest: string[]
}

/**
 * The one reader of a command line, for every command and verb, on every way a line arrives: the
 * CLI and the steps of tapir:run and tapir test. It takes `--name value`, `--name=value`, the
 * kebab-case spelling, a flag's char (`-f`), `--no-name` for a boolean, a repeatable flag as
 * often as given, the arguments in order, and `--` before words that start with a dash. A word
 * that looks like a flag but follows one that wants a value is that value (`--text -h`).
 * Anything else is refused with one line that ends in the help to read. With `help`, `--help`
 * or `-h` where a flag goes throws HelpAsked.
 */
export function readVerbLine(verb: Verb, argv: readonly string[], options: {help?: boolean} = {}): VerbLine {
  const {flags, args} = readOrRefuse(verbRules(verb, options.help === true), argv, (words) =>
    words.only(
      `See \`tapir tapir:${verb.name} --help\`.`,
      `The step's words are ${words.call(verb.name)}'s parameters in tools/list, each as --name=value.`,
    ),
  )
  // A verb's params are never repeatable: a value is one of its param's type.
  return {flags: flags as VerbLine['flags'], args}
}

/** The words of a verb's line that the reader takes as a flag's value given after a space
 *  (`--text -h`, `--text --as=x`), by their place: a tapir:run step's planner leaves them to the
 *  verb, so a value never reads as the run's own flag (`--as`, `--holds`, `--timeout`). A word
 *  the verb does not know is passed over, as the planner takes the run's flags before the reader. */
export function verbValueWords(verb: Verb, argv: readonly string[]): ReadonlySet<number> {
  const spelt = spellings(verbRules(verb, false))
  const values = new Set<number>()
  for (let at = 0; at < argv.length; at++) {
    const word = argv[at] ?? ''
    if (word === '--') break
    const rule = word.startsWith('--') && !word.includes('=') ? spelt.get(word.slice(2))?.rule : undefined
    if (!rule || rule.type === 'boolean' || rule.bare !== undefined) continue
    const next = argv[at + 1]
    if (next === undefined || next === '--' || (next.startsWith('--') && spelt.has(next.slice(2)))) continue
    values.add(++at)
  }
  return values
}

/** Whether a line asks for JSON, for wording a refusal of it: `--json` where a flag goes (before
 *  any `--`), on a command that takes it (mcp:serve's stdout is the protocol's). */
export function asksJson(argv: readonly string[], command?: AnyCommand): boolean {
  const takesJson = !command || command.globals === 'all' || command.params.some((param) => param.name === 'json')
  const dashes = argv.indexOf('--')
  return takesJson && (dashes === -1 ? argv : argv.slice(0, dashes)).includes('--json')
}

/** A command's line, read by its params (src/lib/commands/types.ts). */
export function readCommandLine(command: AnyCommand, argv: readonly string[]): CommandLine {
  const {flags, args, rest} = readOrRefuse(commandRules(command), argv, (_words, error) => {
    const help = `See \`tapir ${command.id} --help\`.`
    if (!(error instanceof StrayWord) || !command.rest?.afterDashes) return help
    // start's flutter run arguments come only after `--`: show the line that gives them so.
    const required = command.params.filter((param) => param.required).map((param) => `--${param.name}=<${param.name}>`)
    const line = ['tapir', command.id, ...required, '--', error.word].join(' ')
    return `${command.rest.description.replace(/\.$/, '')} go after \`--\` (${line}). ${help}`
  })
  return {values: {...flags, ...args}, rest}
}

function readOrRefuse(rules: LineRules, argv: readonly string[], help: (words: Words, error: unknown) => string): Read {
  try {
    return read(rules, argv)
  } catch (error) {
    if (error instanceof UsageError || error instanceof HelpAsked) throw error
    throw new UsageError((words) => `${error instanceof Error ? error.message : String(error)}. ${help(words, error)}`)
  }
}

function read(rules: LineRules, argv: readonly string[]): Read {
  const spelt = spellings(rules)
  const chars = new Map<string, FlagRule>(
    rules.flags.flatMap((rule) => (rule.char === undefined ? [] : [[`-${rule.char}`, rule] satisfies [string, FlagRule]])),
  )
  const given = new Map<string, ParamValue | string[]>()
  const args: Record<string, string> = {}
  const rest: string[] = []
  let argCount = 0
  let flagsEnded = false
  const takeArgument = (word: string) => {
    const name = rules.positional[argCount]
    if (name !== undefined) {
      const options = rules.argOptions?.get(name)
      if (options && !options.includes(word)) throw new Error(`Expected ${word} to be one of: ${options.join(', ')}`)
      argCount++
      args[name] = word
    } else if (rules.rest === 'anywhere' || (rules.rest === 'after-dashes' && flagsEnded)) rest.push(word)
    else throw new StrayWord(`Unexpected argument: ${word}`, word)
  }
  // A word is a flag's value unless it is a flag the command knows by that very spelling (then the value was left out).
  const isFlag = (word: string) => word === '--' || (word.startsWith('--') && spelt.has(word.slice(2))) || chars.has(word)
  for (let at = 0; at < argv.length; at++) {
    const word = argv[at] ?? ''
    // A negative number is an argument, as a lone dash is.
    if (flagsEnded || !word.startsWith('-') || word === '-' || /^-\d/.test(word)) {
      takeArgument(word)
      continue
    }
    if (word === '--') {
      flagsEnded = true
      continue
    }
    if (rules.help && (word === '--help' || word === '-h')) throw new HelpAsked()
    const equals = word.indexOf('=')
    const name = word.slice(2, equals === -1 ? undefined : equals)
    const byChar = word.startsWith('--') ? undefined : chars.get(word)
    const spelling = byChar ? {rule: byChar, negated: false} : word.startsWith('--') ? spelt.get(name) : undefined
    if (!spelling) {
      const meant = word.startsWith('--')
        ? nearestName(
            name,
            [...spelt.keys()].filter((known) => !known.startsWith('no-')),
          )
        : undefined
      const refused = `Nonexistent flag: ${equals === -1 ? word : word.slice(0, equals)}`
      throw meant === undefined ? new StrayWord(refused, word) : new Error(`${refused} (did you mean --${meant}?)`)
    }
    const {rule, negated} = spelling
    if (rule.type === 'boolean') {
      if (equals !== -1) {
        const negation = spelt.has(`no-${rule.name}`) ? ` or --no-${rule.name}` : ''
        throw new Error(`Flag --${rule.name} takes no value; give --${rule.name}${negation}`)
      }
      given.set(rule.name, !negated)
      continue
    }
    if (given.has(rule.name) && !rule.multiple) throw new Error(`Flag --${rule.name} can only be specified once`)
    if (equals === -1 && rule.bare !== undefined) {
      given.set(rule.name, rule.bare)
      continue
    }
    const text = equals === -1 ? argv[++at] : word.slice(equals + 1)
    if (text === undefined || (equals === -1 && isFlag(text)))
      throw new Error(`Flag --${rule.name} expects ${rule.options ? `one of these values: ${rule.options.join(', ')}` : 'a value'}`)
    const value = valueOf(rule, text)
    if (rule.multiple) {
      const earlier = given.get(rule.name)
      given.set(rule.name, [...(Array.isArray(earlier) ? earlier : []), String(value)])
    } else given.set(rule.name, value)
  }
  for (const [name, what] of rules.required ?? []) {
    if (args[name] === undefined) throw new Error(`Missing required argument ${name.toUpperCase()} (${what.replace(/\.$/, '')})`)
  }
  const flags: Record<string, ParamValue | string[]> = {}
  for (const {rule, negated} of spelt.values()) {
    if (negated) continue
    const value = given.get(rule.name) ?? rule.default
    if (value !== undefined) flags[rule.name] = value
    else if (rule.missing !== undefined) throw new UsageError(rule.missing)
    else if (rule.required) throw new Error(`Missing required flag ${rule.name}`)
  }
  const {json, state, timeout = GLOBAL_FLAG_RULES.timeout.default} = flags
  // Their rules above give the global values these types (a verb's own `json` is MCP-only, never a flag).
  if (
    typeof timeout !== 'number' ||
    (json !== undefined && typeof json !== 'boolean') ||
    (state !== undefined && typeof state !== 'string')
  )
    throw new Error('The global flags --json, --state and --timeout are not what tapir defines')
  return {flags: {...flags, json, state, timeout}, args, rest}
}
