import {toExtensionParams} from './input.js'
import type {Input, Report, Result, Verb} from './types.js'

type ExtensionVerbDefinition = Omit<Verb, 'execute' | 'report' | 'dispatch'> & {
  /** The `ext.tapir.<ext>` method; defaults to the verb's name. */
  ext?: string
  execute?: Verb['execute']
  report?: Verb['report']
}

/** A verb the app answers itself through `ext.tapir.<name>`; by default its result prints as JSON. */
export function extensionVerb({ext, ...definition}: ExtensionVerbDefinition): Verb {
  const method = ext ?? definition.name
  const verb: Verb = {
    dispatch: `ext.tapir.${method}`,
    execute: async (call, input: Input): Promise<Result> => (await call.app()).callExtension(method, toExtensionParams(verb, input), call.deadline),
    report: (result: Result): Report => ({stdout: JSON.stringify(result)}),
    ...definition,
  }
  return verb
}
