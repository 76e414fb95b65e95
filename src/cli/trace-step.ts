import type {Outcome} from '../lib/output/outcome.js'
import {outcomeText} from '../lib/output/outcome.js'
import type {SessionContext} from '../lib/runtime/session-context.js'
import {sessionTracer} from '../lib/runtime/session-trace.js'
import {appendStep} from '../lib/trace/append-step.js'
import type {StepDone, Tracer} from '../lib/trace/tracer.js'
import type {VerbContext} from '../lib/verbs/types.js'

/** A verb's command line as a trace shows it; the text a fill or type typed is never written
 *  (whether its field is obscured cannot be seen without asking the app). */
export function verbLineText(verb: string, argv: readonly string[]): string {
  const typed = verb === 'fill' || verb === 'type'
  // Where the session is, not what the step did: a trace names no session file.
  const own = argv.filter((word, index) => !/^--state(=|$)/.test(word) && argv[index - 1] !== '--state')
  const words = own.map((word) => (typed && /^--text=/.test(word) ? '--text=***' : /\s|^$/.test(word) ? JSON.stringify(word) : word))
  return [`tapir:${verb}`, ...words].join(' ')
}

/** Appends the step to the session's trace when one is on (tapir trace start). A trace that
 *  cannot be written never fails the step: its reason is added to the step's warnings. */
export async function traceSessionStep(
  context: SessionContext,
  step: {via: StepDone['via']; call: string; startedAt: Date; outcome: Outcome; acted: boolean},
): Promise<Outcome> {
  let tracer: Tracer | undefined
  try {
    tracer = sessionTracer(context.location)
  } catch {
    return step.outcome // no session folder, or the trace's file is gone: the verb goes on untraced
  }
  if (!tracer) return step.outcome
  return traceStep(tracer, context, step)
}

/** Appends one step to `tracer`; a failure to write it becomes a warning on the outcome. */
export async function traceStep(
  tracer: Tracer,
  context: VerbContext,
  step: {via: StepDone['via']; call: string; startedAt: Date; outcome: Outcome; acted: boolean; durationMs?: number},
): Promise<Outcome> {
  const problem = await appendStep(tracer, context, {
    via: step.via,
    call: step.call,
    startedAt: step.startedAt,
    durationMs: step.durationMs ?? Date.now() - step.startedAt.getTime(),
    exitCode: step.outcome.exitCode,
    output: outcomeText(step.outcome),
    result: step.outcome.result,
    acted: step.acted,
  })
  return problem ? {...step.outcome, stderr: [...step.outcome.stderr, `⚠ ${problem[0]?.toUpperCase()}${problem.slice(1)}`]} : step.outcome
}
