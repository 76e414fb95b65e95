import {Deadline} from '../vm/deadline.js'
import type {Input, Result, Verb, VerbContext} from './types.js'

/** Runs a verb under one overall deadline: --timeout, plus the time the verb waits in the app
 *  (wait_for, tap --until), shared by connecting, finding the isolate and every call. */
export function executeVerb(verb: Verb, context: VerbContext, input: Input): Promise<Result> {
  const deadline = new Deadline(context.timeoutMs, verb.waitsMs?.(input) ?? 0)
  return verb.execute(
    {
      app: () => context.app(deadline.setup),
      appWithin: (own: Deadline) => context.app(own),
      timeoutMs: context.timeoutMs,
      chrome: () => context.chrome(),
      ...(context.progress ? {progress: context.progress.bind(context)} : {}),
      ...(context.interrupted ? {interrupted: context.interrupted.bind(context)} : {}),
      ...(context.cancelled ? {cancelled: context.cancelled} : {}),
      ...(context.holdOverride ? {holdOverride: context.holdOverride.bind(context)} : {}),
      ...(context.target ? {target: context.target.bind(context)} : {}),
      ...(context.reset ? {reset: context.reset.bind(context)} : {}),
      ...(context.reload ? {reload: context.reload.bind(context)} : {}),
      ...(context.sessionFile ? {sessionFile: context.sessionFile.bind(context)} : {}),
      cwd: context.cwd,
      deadline,
    },
    input,
  )
}
