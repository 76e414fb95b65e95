import {Deadline} from '../vm/deadline.js'
import {drivesZeroInstall, refusedZeroInstall, refuseZeroInstall, runZeroInstall} from '../zero/drive.js'
import {clearDeadHolder} from './dead-holder.js'
import {callsAppPackage, runOnDusk} from './dusk/drive.js'
import {explainOffViewport} from './off-viewport.js'
import type {Input, Result, Verb, VerbCall, VerbContext} from './types.js'
import {explainWrongKind} from './wrong-kind.js'

/** Runs a verb under one overall deadline: --timeout, plus the time the verb waits in the app
 *  (wait_for, tap --until), shared by connecting, finding the isolate and every call. While a
 *  recording is on, what it needs is read before the verb runs and its steps appended once it
 *  succeeded (a soft failure is not a success). */
export async function executeVerb(verb: Verb, context: VerbContext, input: Input): Promise<Result> {
  const deadline = new Deadline(context.timeoutMs, verb.waitsMs?.(input) ?? 0)
  const call: VerbCall = {
    app: () => context.app(deadline.setup),
    appWithin: (own: Deadline) => context.app(own),
    timeoutMs: context.timeoutMs,
    chrome: () => context.chrome(),
    ...(context.progress ? {progress: context.progress.bind(context)} : {}),
    ...(context.interrupted ? {interrupted: context.interrupted.bind(context)} : {}),
    ...(context.cancelled ? {cancelled: context.cancelled} : {}),
    ...(context.holdStack ? {holdStack: context.holdStack.bind(context)} : {}),
    ...(context.target ? {target: context.target.bind(context)} : {}),
    ...(context.reset ? {reset: context.reset.bind(context)} : {}),
    ...(context.reload ? {reload: context.reload.bind(context)} : {}),
    ...(context.sessionFile ? {sessionFile: context.sessionFile.bind(context)} : {}),
    ...(context.handleState ? {handleState: context.handleState.bind(context)} : {}),
    ...(context.perfState ? {perfState: context.perfState.bind(context)} : {}),
    ...(context.origin ? {origin: context.origin} : {}),
    ...(context.envWords ? {envWords: context.envWords} : {}),
    cwd: context.cwd,
    deadline,
  }
  // Best effort: a verb that needs Chrome fails on its own when Chrome does not answer.
  await clearDeadHolder(call).catch(() => undefined)
  const commit = await context.recorder?.(verb)?.begin(verb, input, call)
  let result: Result
  try {
    result = await runVerb(verb, call, input)
  } catch (error) {
    throw await explainOffViewport(explainWrongKind(context.refs ? context.refs.explain(error, input) : error, verb.name), call)
  }
  context.refs?.note(result)
  if (commit && !verb.failed?.(result, input, false)) await commit(result)
  return result
}

/** A verb that calls into the app's package goes by the package the app runs: tapir's own
 *  wire, or Dusk 0.0.1's (src/lib/verbs/dusk). A call that asks the app nothing runs as it is. */
export async function runVerb(verb: Verb, call: VerbCall, input: Input): Promise<Result> {
  const asksApp = verb.asksApp?.(input, call) ?? true
  const inPackage = verb.dispatch.startsWith('ext.tapir.')
  if (!asksApp) return verb.execute(call, input)
  if (!(inPackage || callsAppPackage(verb))) {
    // tapir's own verbs around the package's calls (expect, hot_reload_and_snap) are refused on an
    // app with no package before they begin.
    if (refusedZeroInstall(verb)) {
      const app = await call.app()
      if ((await app.appPackage(call.deadline)) === undefined && (await drivesZeroInstall(app, call.deadline))) refuseZeroInstall(verb)
    }
    return verb.execute(call, input)
  }
  const app = await call.app()
  const appPackage = await app.appPackage(call.deadline)
  if (appPackage === 'dusk' && callsAppPackage(verb)) return runOnDusk(verb, call, input)
  if (appPackage === undefined && inPackage && (await drivesZeroInstall(app, call.deadline))) return runZeroInstall(verb, call, input)
  return verb.execute(call, input)
}

/** Whether the app runs no package and can be driven through Flutter's own surface now (after a
 *  restart: once its main() drew a frame). */
export async function drivenZeroInstall(context: VerbContext): Promise<boolean> {
  const deadline = new Deadline(context.timeoutMs)
  const app = await context.app(deadline.setup)
  return (await app.appPackage(deadline)) === undefined && (await drivesZeroInstall(app, deadline))
}
