import {TapirError, UsageError} from '../lib/errors.js'
import type {Outcome} from '../lib/output/outcome.js'
import {resultOutcome, softFailureOutcome} from '../lib/output/outcome.js'
import {executeVerb} from '../lib/verbs/execute-verb.js'
import {checkValue, isValueOf, requireParams} from '../lib/verbs/input.js'
import type {Input, Verb, VerbContext} from '../lib/verbs/types.js'
import {asksJson, readVerbLine, type VerbLine} from './command-line.js'
import {produceOutcome} from './produce-outcome.js'
import {traceSessionStep, verbLineText} from './trace-step.js'

/** A catalogue verb run on its command line, as the CLI, oclif's verb class, and a step of
 *  tapir:run or tapir test each run it: read by the one reader, the session's context opened
 *  (or the run's shared one used), the verb run, its result read. Never throws, never prints. */
export function verbLineOutcome(
  verb: Verb,
  argv: readonly string[],
  sharedContext?: VerbContext,
  options: {help?: boolean} = {},
): Promise<Outcome> {
  const startedAt = new Date()
  return produceOutcome(
    asksJson(argv),
    async () => readVerbLine(verb, argv, options),
    (line, context) => verbOutcome(verb, line, context),
    sharedContext,
    (context, outcome) =>
      traceSessionStep(context, {via: 'cli', call: verbLineText(verb.name, argv), startedAt, outcome, acted: verb.kind !== 'read'}),
  )
}

/** Runs a catalogue verb on what its command line gave it, and reads its result; never prints. */
async function verbOutcome(verb: Verb, {flags, args}: VerbLine, context: VerbContext): Promise<Outcome> {
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
