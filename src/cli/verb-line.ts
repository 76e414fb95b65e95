import {UsageError} from '../lib/errors.js'
import {nearestName} from '../lib/nearest-name.js'
import {missingMessage} from '../lib/verbs/input.js'
import type {Param, ParamValue, Verb} from '../lib/verbs/types.js'
import {GLOBAL_FLAG_RULES, flagDefault, flagParams, isRequiredFlag, kebabCase, readList, readNumber} from './flag-rules.js'
import type {GlobalValues} from './produce-outcome.js'

/** A verb's command line as read: its flags (the global ones among them) and its positional
 *  arguments, each still to be checked against its param (verb-outcome.ts). */
export interface VerbLine {
  flags: Record<string, ParamValue | undefined> & GlobalValues
  args: Record<string, string>
}

/** One flag as the reader knows it. */
interface FlagRule {
  name: string
  type: Param['type'] | 'passThrough'
  options?: readonly string[]
  min?: number
  default?: ParamValue
  /** Its absence is refused, in the verb's own words. */
  missing?: string
  /** The value a bare `--name` stands for. */
  bare?: string
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

/** Every spelling the command line may use for a flag of `verb`: its name, its kebab-case alias
 *  and, for a boolean of the verb's own, `no-` before either (the global --json has none). */
function spellings(verb: Verb): Map<string, Spelling> {
  const spelt = new Map<string, Spelling>(GLOBAL_RULES.map((rule) => [rule.name, {rule, negated: false}]))
  for (const param of flagParams(verb)) {
    const fallback = flagDefault(param)
    const rule: FlagRule = {
      name: param.name,
      type: param.passThrough ? 'passThrough' : param.type,
      ...(param.options && !param.passThrough ? {options: param.options} : {}),
      ...(fallback === undefined ? {} : {default: fallback}),
      ...(isRequiredFlag(param, verb) ? {missing: missingMessage(param)} : {}),
      ...(param.bare === undefined ? {} : {bare: param.bare}),
    }
    const words = new Set([param.name, kebabCase(param.name)])
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

/**
 * The one reader of a catalogue verb's command line, on every way a line arrives: the CLI
 * (with or without oclif loaded) and the steps of tapir:run and tapir test. It takes
 * `--name value`, `--name=value`, the kebab-case spelling, `--no-name` for a boolean, the
 * verb's arguments in order, and `--` before arguments that start with a dash. Anything else
 * is refused with one line that ends in the help to read.
 */
export function readVerbLine(verb: Verb, argv: readonly string[]): VerbLine {
  try {
    return read(verb, argv)
  } catch (error) {
    if (error instanceof UsageError) throw error
    throw new UsageError(
      (words) =>
        `${error instanceof Error ? error.message : String(error)}. ${words.only(
          `See \`tapir tapir:${verb.name} --help\`.`,
          `The step's words are ${words.call(verb.name)}'s parameters in tools/list, each as --name=value.`,
        )}`,
    )
  }
}

function read(verb: Verb, argv: readonly string[]): VerbLine {
  const rules = spellings(verb)
  const positional = verb.positional ?? []
  const given = new Map<string, ParamValue>()
  const args: Record<string, string> = {}
  let argCount = 0
  let flagsEnded = false
  const takeArgument = (word: string) => {
    const name = positional[argCount++]
    if (name === undefined) throw new Error(`Unexpected argument: ${word}`)
    args[name] = word
  }
  // A word is a flag's value unless it is a flag the verb knows by that very spelling (then the value was left out).
  const isFlag = (word: string) => word === '--' || (word.startsWith('--') && rules.has(word.slice(2)))
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
    const equals = word.indexOf('=')
    const name = word.slice(2, equals === -1 ? undefined : equals)
    const spelt = word.startsWith('--') ? rules.get(name) : undefined
    if (!spelt) {
      const meant = word.startsWith('--')
        ? nearestName(
            name,
            [...rules.keys()].filter((known) => !known.startsWith('no-')),
          )
        : undefined
      throw new Error(
        `Nonexistent flag: ${equals === -1 ? word : word.slice(0, equals)}${meant === undefined ? '' : ` (did you mean --${meant}?)`}`,
      )
    }
    const {rule, negated} = spelt
    if (rule.type === 'boolean') {
      if (equals !== -1) {
        const negation = rules.has(`no-${rule.name}`) ? ` or --no-${rule.name}` : ''
        throw new Error(`Flag --${rule.name} takes no value; give --${rule.name}${negation}`)
      }
      given.set(rule.name, !negated)
      continue
    }
    if (given.has(rule.name)) throw new Error(`Flag --${rule.name} can only be specified once`)
    if (equals === -1 && rule.bare !== undefined) {
      given.set(rule.name, rule.bare)
      continue
    }
    const text = equals === -1 ? argv[++at] : word.slice(equals + 1)
    if (text === undefined || (equals === -1 && isFlag(text)))
      throw new Error(`Flag --${rule.name} expects ${rule.options ? `one of these values: ${rule.options.join(', ')}` : 'a value'}`)
    given.set(rule.name, valueOf(rule, text))
  }
  const flags: Record<string, ParamValue> = {}
  for (const {rule, negated} of rules.values()) {
    if (negated) continue
    const value = given.get(rule.name) ?? rule.default
    if (value !== undefined) flags[rule.name] = value
    else if (rule.missing !== undefined) throw new UsageError(rule.missing)
  }
  const {json, state, timeout} = flags
  // Their rules above give the global values these types (a verb's own `json` is MCP-only, never a flag).
  if (
    typeof timeout !== 'number' ||
    (json !== undefined && typeof json !== 'boolean') ||
    (state !== undefined && typeof state !== 'string')
  )
    throw new Error('The global flags --json, --state and --timeout are not what tapir defines')
  return {flags: {...flags, json, state, timeout}, args}
}
