import type {InputOf, Param, Result, Verb, VerbOf} from './types.js'

/** Keeps the literal names and types of a parameter list, so InputOf can read them. */
export function params<const P extends readonly Param[]>(...list: P): P {
  return list
}

/** Types a verb written out in full (not through extensionVerb) by its own parameters, and its
 *  result by what its `execute` returns. */
export function defineVerb<const P extends readonly Param[], R extends Result>(
  verb: {params: P} & Omit<Verb<InputOf<P>, R>, 'params'>,
): VerbOf<P, R> {
  return verb
}

/** The summary the CLI shows: the verb's summary and its exit rule. */
export function cliSummary(verb: Verb): string {
  return verb.cliExit ? `${verb.summary.replace(/\.$/, '')}; ${verb.cliExit}.` : verb.summary
}
