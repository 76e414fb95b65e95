import {toExtensionParams} from './input.js'
import type {InputOf, Param, Report, Result, Verb, VerbOf} from './types.js'

type ExtensionVerbDefinition<P extends readonly Param[]> = {params: P} & Omit<
  Verb<InputOf<P>>,
  'execute' | 'report' | 'dispatch' | 'params'
> & {
    /** The `ext.tapir.<ext>` method; defaults to the verb's name. */
    ext?: string
    execute?: Verb<InputOf<P>>['execute']
    report?: Verb<InputOf<P>>['report']
  }

/** A verb the app answers itself through `ext.tapir.<name>`; by default its result prints as JSON. */
export function extensionVerb<const P extends readonly Param[]>({ext, ...definition}: ExtensionVerbDefinition<P>): VerbOf<P> {
  const method = ext ?? definition.name
  const verb: VerbOf<P> = {
    dispatch: `ext.tapir.${method}`,
    execute: async (call, input: InputOf<P>): Promise<Result> =>
      (await call.app()).callExtension(method, toExtensionParams(verb.params, input), call.deadline),
    report: (result: Result): Report => ({stdout: JSON.stringify(result)}),
    ...definition,
  }
  return verb
}
