import {TapirError, UsageError} from '../lib/errors.js'
import type {Outcome} from '../lib/output/outcome.js'
import {resultOutcome, softFailureOutcome} from '../lib/output/outcome.js'
import {executeVerb} from '../lib/verbs/execute-verb.js'
import {checkValue, isValueOf, requireParams} from '../lib/verbs/input.js'
import type {Input, Verb, VerbContext} from '../lib/verbs/types.js'

/** The values a CLI reader found for a verb: its flags (the global --json among them) and
 *  its positional arguments, each still to be checked against its param. */
export interface VerbValues {
  flags: Record<string, unknown> & {json?: boolean}
  args: Record<string, unknown>
}

/** Runs a catalogue verb on what the command line gave it, whichever reader read it (oclif's, or
 *  the fast path's own, src/commands/direct-verb.ts), and reads its result; never prints. */
export async function verbOutcome(verb: Verb, {flags, args}: VerbValues, context: VerbContext): Promise<Outcome> {
  const input: Input = {}
  for (const param of verb.params) {
    const value: unknown = flags[param.name] ?? args[param.name]
    if (flags[param.name] !== undefined && args[param.name] !== undefined && flags[param.name] !== args[param.name]) {
      throw new UsageError(`${param.name} is given twice (as an argument and as --${param.name}); give it once.`)
    }
    if (value === undefined) continue
    // A pass-through value goes to the app as typed: the app answers for it.
    if (param.passThrough && typeof value === 'string') {
      input[param.name] = value
      continue
    }
    if (!isValueOf(param, value))
      throw new UsageError(`--${param.name} takes ${param.type === 'string[]' ? 'a comma-separated list' : `a ${param.type}`}.`)
    checkValue(param, value)
    input[param.name] = value
  }
  requireParams(verb.params, input)
  verb.validate?.(input)
  let result
  try {
    result = await executeVerb(verb, context, input)
  } catch (error) {
    if (!(error instanceof TapirError)) throw error
    const soft = verb.softFailure?.(error, input)
    if (!soft) throw error
    return softFailureOutcome(error, soft, flags.json === true)
  }
  return resultOutcome(verb, result, input, flags.json === true)
}
