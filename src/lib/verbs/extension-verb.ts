import type {Shape} from '../shape.js'
import {toExtensionParams} from './input.js'
import type {InputOf, Param, Report, Result, Verb, VerbOf} from './types.js'

type ExtensionVerbDefinition<P extends readonly Param[], R extends Result> = {params: P; result: Shape<R>} & Omit<
  Verb<InputOf<P>, R>,
  'execute' | 'report' | 'dispatch' | 'params' | 'result'
> & {
    /** The `ext.tapir.<ext>` method; defaults to the verb's name. */
    ext?: string
    execute?: Verb<InputOf<P>, R>['execute']
    report?: Verb<InputOf<P>, R>['report']
  }

/** A verb the app answers itself through `ext.tapir.<name>`, with an answer of shape `result`;
 *  by default its result prints as JSON. */
export function extensionVerb<const P extends readonly Param[], R extends Result>({
  ext,
  ...definition
}: ExtensionVerbDefinition<P, R>): VerbOf<P, R> & {result: Shape<R>} {
  const method = ext ?? definition.name
  const verb: VerbOf<P, R> & {result: Shape<R>} = {
    dispatch: `ext.tapir.${method}`,
    execute: async (call, input) => {
      const params = toExtensionParams(verb.params, input)
      return (await call.app()).callExtension(method, params, verb.result, call.deadline, verb.slices?.(method, params))
    },
    report: (result): Report => ({stdout: JSON.stringify(result)}),
    ...definition,
  }
  return verb
}
