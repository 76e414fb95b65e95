import {defaultFor} from '../lib/verbs/input.js'
import type {Param, ParamValue, Verb} from '../lib/verbs/types.js'

// How a verb's params, and the flags every command takes, become command-line flags, with no
// oclif in it: the one reader (command-line.ts) and oclif's definitions for help and completion
// (src/oclif/verb-flags.ts, outcome-command.ts) are both made from these rules.

/** The flags every tapir command takes. */
export const GLOBAL_FLAG_RULES = {
  json: {type: 'boolean', description: 'Print the JSON result (or error) instead of the summary line.'},
  state: {type: 'string', description: 'Session file to use instead of the per-project one (also TAPIR_STATE_FILE).'},
  timeout: {
    type: 'integer',
    description: 'Milliseconds one verb may take, all its calls to the app included (its own wait in the app comes on top).',
    default: 30_000,
    min: 1,
  },
} as const

/** `interactiveOnly` → `interactive-only`: the spelling of shell habits, taken as an alias. */
export function kebabCase(name: string): string {
  return name.replace(/[A-Z]/g, (letter) => `-${letter.toLowerCase()}`)
}

/** The params a verb takes as flags: all but an MCP-only one (a tool's `json` is the global --json). */
export function flagParams(verb: Verb): Param[] {
  return verb.params.filter((param) => !param.mcpOnly)
}

/** Whether the command line must name the flag: a required value that may come as an argument
 *  instead is checked by the verb. */
export function isRequiredFlag(param: Param, verb: Verb): boolean {
  return param.required === true && !(verb.positional ?? []).includes(param.name)
}

/** The value a flag left out takes on the CLI, when it is of the flag's own type. */
export function flagDefault(param: Param): ParamValue | undefined {
  if (param.passThrough || param.type === 'string[]') return undefined
  const fallback = defaultFor(param, 'cli')
  const type = param.type === 'integer' ? 'number' : param.type
  return typeof fallback === type ? fallback : undefined
}

/** A `number` flag's text as a number; throws on anything else. */
export function readNumber(text: string): number {
  const value = Number(text)
  if (text.trim() === '' || !Number.isFinite(value)) throw new Error(`Expected a number but received: ${text}`)
  return value
}

/** A `string[]` flag's text: its comma-separated items, trimmed, empty ones left out. */
export function readList(text: string): string[] {
  return text
    .split(',')
    .map((item) => item.trim())
    .filter((item) => item !== '')
}
