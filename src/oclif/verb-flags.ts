import * as Args from '@oclif/core/args'
import * as Flags from '@oclif/core/flags'
import {flagDefault, flagParams, isRequiredFlag, kebabCase, readList, readNumber} from '../cli/flag-rules.js'
import type {Param, Verb} from '../lib/verbs/types.js'

const number = Flags.custom<number>({parse: async (text) => readNumber(text)})

const commaList = Flags.custom<string[]>({parse: async (text) => readList(text)})

function flagFor(param: Param, verb: Verb) {
  const kebab = kebabCase(param.name)
  const named = {
    description: param.description,
    ...(isRequiredFlag(param, verb) ? {required: true} : {}),
    ...(kebab === param.name ? {} : {aliases: [kebab]}),
  }
  if (param.passThrough) return Flags.string(named)
  const fallback = flagDefault(param)
  const common = {...named, ...(param.options ? {options: [...param.options]} : {})}
  switch (param.type) {
    case 'boolean':
      return Flags.boolean({...common, allowNo: true, ...(typeof fallback === 'boolean' ? {default: fallback} : {})})
    case 'integer':
      return Flags.integer({...common, ...(typeof fallback === 'number' ? {default: fallback} : {})})
    case 'number':
      return number({...common, ...(typeof fallback === 'number' ? {default: fallback} : {})})
    case 'string[]':
      return commaList({...common})
    case 'string':
      return Flags.string({...common, ...(typeof fallback === 'string' ? {default: fallback} : {})})
  }
}

/** The oclif flags of a verb, named exactly as the spec's parameters, each also taking its
 *  kebab-case spelling. A required one is marked so (help shows it). An MCP-only param (a tool's `json`) is the global
 *  --json flag on the CLI. */
export function flagsFor(verb: Verb) {
  return Object.fromEntries(flagParams(verb).map((param) => [param.name, flagFor(param, verb)]))
}

/** The positional arguments a verb takes, each also a flag of the same name. */
export function argsFor(verb: Verb) {
  const params = new Map(verb.params.map((param) => [param.name, param]))
  return Object.fromEntries(
    (verb.positional ?? []).map((name) => {
      const param = params.get(name)
      const description = param?.description ?? name
      // ignoreStdin: oclif would otherwise read a missing argument from a piped stdin, and a
      // script's `while read` loop would lose its input to a perf_compare given --a and --b.
      return [
        name,
        Args.string({description: param?.required ? `(required, here or as --${name}) ${description}` : description, ignoreStdin: true}),
      ]
    }),
  )
}

const GLOBAL_USAGE = '[--json] [--state <value>] [--timeout <value>]'

/** The usage line of a verb whose required values may come as arguments: oclif brackets an
 *  argument it does not enforce, so the line is written here, those arguments bare. */
export function usageFor(verb: Verb): string | undefined {
  const positional = verb.positional ?? []
  const params = new Map(verb.params.map((param) => [param.name, param]))
  if (!positional.some((name) => params.get(name)?.required)) return undefined
  const args = positional.map((name) => (params.get(name)?.required ? name.toUpperCase() : `[${name.toUpperCase()}]`))
  const flags = verb.params
    .filter((param) => !param.mcpOnly && !positional.includes(param.name))
    .map((param) => {
      const value = param.type === 'boolean' ? '' : param.options ? ` ${param.options.join('|')}` : ' <value>'
      return param.required ? `--${param.name}${value}` : `[--${param.name}${value}]`
    })
  return [
    '<%= command.id %>',
    ...args,
    ...flags.filter((flag) => !flag.startsWith('[')),
    GLOBAL_USAGE,
    ...flags.filter((flag) => flag.startsWith('[')),
  ].join(' ')
}
