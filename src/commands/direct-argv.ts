import type {Param, ParamValue, Verb} from '../lib/verbs/types.js'
import type {GlobalValues} from './produce-outcome.js'
import {GLOBAL_FLAG_RULES, flagDefault, flagParams, isRequiredFlag, kebabCase, readList, readNumber} from './verb-flag-rules.js'
import type {VerbValues} from './verb-outcome.js'

/** One flag as the reader knows it: what oclif is given for it (verb-flags.ts, tapir-command.ts). */
interface FlagRule {
  name: string
  type: Param['type'] | 'passThrough'
  options?: readonly string[]
  min?: number
  default?: ParamValue
  required: boolean
}

const GLOBAL_RULES: readonly FlagRule[] = Object.entries(GLOBAL_FLAG_RULES).map(([name, rule]) => ({
  name,
  type: rule.type,
  ...('min' in rule ? {min: rule.min} : {}),
  ...('default' in rule ? {default: rule.default} : {}),
  required: false,
}))

/** The flags of `verb` by every spelling the command line may use: its name, its kebab-case
 *  alias and, for a boolean of the verb's own, `no-` before either (the global --json has none). */
function spellings(verb: Verb): Map<string, {rule: FlagRule; negated: boolean}> {
  const byName = new Map<string, FlagRule>(GLOBAL_RULES.map((rule) => [rule.name, rule]))
  const own = flagParams(verb)
  for (const param of own) {
    const fallback = flagDefault(param)
    byName.set(param.name, {
      name: param.name,
      type: param.passThrough ? 'passThrough' : param.type,
      ...(param.options && !param.passThrough ? {options: param.options} : {}),
      ...(fallback === undefined ? {} : {default: fallback}),
      required: isRequiredFlag(param, verb),
    })
  }
  const spelt = new Map<string, {rule: FlagRule; negated: boolean}>()
  for (const rule of byName.values()) spelt.set(rule.name, {rule, negated: false})
  for (const param of own) {
    const rule = byName.get(param.name)!
    const words = [param.name, kebabCase(param.name)]
    if (words[1] !== param.name && !spelt.has(words[1]!)) spelt.set(words[1]!, {rule, negated: false})
    if (rule.type !== 'boolean') continue
    for (const word of words) if (!spelt.has(`no-${word}`)) spelt.set(`no-${word}`, {rule, negated: true})
  }
  return spelt
}

/** Whether oclif takes `text`, given as a value, for a flag instead, and so for a value left out.
 *  It looks flags up in plain objects, where `--toString` or `--__proto__` finds one too. */
function looksLikeFlag(text: string, rules: Map<string, unknown>): boolean {
  if (!text.startsWith('--')) return false
  const word = text.slice(2)
  return rules.has(word) || word in Object.prototype
}

/** A flag's text as its value, or undefined where oclif would refuse it. */
function valueOf(rule: FlagRule, text: string): ParamValue | undefined {
  if (rule.options && !rule.options.includes(text)) return undefined
  switch (rule.type) {
    case 'integer': {
      if (!/^-?\d+$/.test(text)) return undefined
      const value = Number.parseInt(text, 10)
      return rule.min !== undefined && value < rule.min ? undefined : value
    }
    case 'number':
      try {
        return readNumber(text)
      } catch {
        return undefined
      }
    case 'string[]':
      return readList(text)
    default:
      return text
  }
}

/**
 * A catalogue verb's command line read as oclif reads it, for the plain forms scripts and agents
 * write: `--name value`, `--name=value`, `--kebab-name`, `--no-name`, its arguments in order.
 * Anything else (an unknown or repeated flag, a short flag, `--`, a value oclif would refuse, a
 * required flag left out) gives undefined, and oclif reads it instead, so every error keeps its
 * one wording. test/unit/direct-argv.test.ts holds the two readers to the same answers.
 */
export function readVerbArgv(verb: Verb, argv: readonly string[]): (VerbValues & {flags: GlobalValues}) | undefined {
  const rules = spellings(verb)
  const positional = verb.positional ?? []
  const given = new Map<string, ParamValue>()
  const args: Record<string, string> = {}
  let argCount = 0
  for (let at = 0; at < argv.length; at++) {
    const token = argv[at]!
    if (!token.startsWith('-') || token === '-') {
      const name = positional[argCount++]
      if (name === undefined) return undefined
      args[name] = token
      continue
    }
    if (!token.startsWith('--') || token === '--') return undefined
    const equals = token.indexOf('=')
    const spelt = rules.get(token.slice(2, equals === -1 ? undefined : equals))
    if (!spelt) return undefined
    const {rule, negated} = spelt
    if (rule.type === 'boolean') {
      if (equals !== -1) return undefined
      given.set(rule.name, !negated)
      continue
    }
    if (given.has(rule.name)) return undefined
    const text = equals === -1 ? argv[++at] : token.slice(equals + 1)
    if (text === undefined || looksLikeFlag(text, rules)) return undefined
    const value = valueOf(rule, text)
    if (value === undefined) return undefined
    given.set(rule.name, value)
  }
  const flags: Record<string, unknown> = {}
  for (const {rule, negated} of rules.values()) {
    if (negated || flags[rule.name] !== undefined) continue
    const value = given.get(rule.name) ?? rule.default
    if (value === undefined && rule.required) return undefined
    if (value !== undefined) flags[rule.name] = value
  }
  // The global values as their types, which their rules above make them.
  const {json, state, timeout} = flags
  if (
    typeof timeout !== 'number' ||
    (json !== undefined && typeof json !== 'boolean') ||
    (state !== undefined && typeof state !== 'string')
  )
    return undefined
  return {flags: {...flags, json, state, timeout}, args}
}
