import * as Args from '@oclif/core/args'
import * as Flags from '@oclif/core/flags'
import {defaultFor} from '../lib/verbs/input.js'
import type {Param, Verb} from '../lib/verbs/types.js'

const number = Flags.custom<number>({
  parse: async (text) => {
    const value = Number(text)
    if (text.trim() === '' || !Number.isFinite(value)) throw new Error(`Expected a number but received: ${text}`)
    return value
  },
})

const commaList = Flags.custom<string[]>({
  parse: async (text) =>
    text
      .split(',')
      .map((item) => item.trim())
      .filter((item) => item !== ''),
})

function flagFor(param: Param) {
  if (param.passThrough) return Flags.string({description: param.description})
  const fallback = defaultFor(param, 'cli')
  const common = {description: param.description, ...(param.options ? {options: [...param.options]} : {})}
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

/** The oclif flags of a verb, named exactly as the spec's parameters. Required values are
 *  checked by the verb (with the original CLI's wording), not by oclif. An MCP-only param (a
 *  tool's `json`) is the global --json flag on the CLI. */
export function flagsFor(verb: Verb) {
  return Object.fromEntries(verb.params.filter((param) => !param.mcpOnly).map((param) => [param.name, flagFor(param)]))
}

/** The positional arguments a verb takes, each also a flag of the same name. */
export function argsFor(verb: Verb) {
  const params = new Map(verb.params.map((param) => [param.name, param]))
  return Object.fromEntries(
    (verb.positional ?? []).map((name) => [name, Args.string({description: params.get(name)?.description ?? name})]),
  )
}
