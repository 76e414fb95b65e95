import type {Outcome} from '../lib/output/outcome.js'
import {runSteps, type StepResult} from '../lib/run/execute.js'
import {maskWholeValues} from '../lib/run/mask.js'
import type {Step, StepLine} from '../lib/run/plan.js'
import {planSteps} from '../lib/run/plan.js'
import {reportWithoutSecrets, runOutcome} from '../lib/run/render.js'
import type {SessionContext} from '../lib/runtime/session-context.js'
import {sessionTracer} from '../lib/runtime/session-trace.js'
import {Tracer} from '../lib/trace/tracer.js'
import {verbNamed} from '../lib/verbs/index.js'
import type {VerbContext} from '../lib/verbs/types.js'
import {verbValueWords} from './command-line.js'
import {traceStep} from './trace-step.js'
import {verbLineOutcome} from './verb-outcome.js'

/** The words of a step the one reader takes as a flag's value: never the run's own flags. */
export function stepValueWords(name: string, argv: readonly string[]): ReadonlySet<number> {
  const verb = verbNamed(name)
  return verb ? verbValueWords(verb, argv) : new Set()
}

/** Runs one step: its verb on its words, read by the one reader, sharing `context` (the run's one
 *  connection), as `tapir tapir:<verb> <words>` would run it on its own. */
export function stepOutcome(step: Step, context: VerbContext): Promise<Outcome> {
  const verb = verbNamed(step.verb)
  // planSteps took only catalogue verbs.
  if (!verb) throw new Error(`${step.verb} is not a verb`)
  return verbLineOutcome(verb, step.argv, step.envWords ? withEnvWords(context, step.envWords) : context)
}

/** Plans the step lines, then runs each in this process (tapir:run, and mcp:serve's tapir_run).
 *  Never prints; a value read from the environment is masked in what it returns. */
export async function runStepLines(
  lines: ReadonlyArray<string | StepLine>,
  options: {keepGoing: boolean; json: boolean; context: VerbContext; strict?: boolean; trace?: RunTrace},
): Promise<Outcome> {
  const {steps, secrets} = planSteps(lines, {isVerb: (verb) => verbNamed(verb) !== undefined, valueWords: stepValueWords, env: process.env})
  const tracer = options.trace?.(secrets)
  const warnings: string[] = []
  const onStep = tracer
    ? async (result: StepResult, index: number) => {
        const durationMs = result.durationMs ?? 0
        const traced = await traceStep(tracer, options.context, {
          via: 'run',
          call: result.step,
          startedAt: new Date(Date.now() - durationMs),
          durationMs,
          outcome: result.outcome,
          acted: verbNamed(steps[index]?.verb ?? '')?.kind !== 'read',
        })
        warnings.push(...traced.stderr.slice(result.outcome.stderr.length))
      }
    : undefined
  const report = await runSteps(steps, (step) => stepOutcome(step, options.context), options.keepGoing, {
    strict: options.strict === true,
    ...(onStep ? {onStep} : {}),
  })
  // the steps' lines are all written (appendStep waits for each): this adds the closing line
  await tracer?.close().catch(() => undefined)
  const outcome = runOutcome(reportWithoutSecrets(report, secrets), steps.length, options.json)
  return warnings.length > 0 ? {...outcome, stderr: [...outcome.stderr, ...new Set(warnings)]} : outcome
}

/** The tracer of a run, made once its secrets are known (they are masked in all it writes). */
export type RunTrace = (secrets: readonly string[]) => Tracer | undefined

/** The session's trace (tapir trace start), when one is on: the run's steps are appended to it. */
export function sessionRunTrace(context: SessionContext): RunTrace {
  return (secrets) => {
    try {
      return sessionTracer(context.location, (text) => maskWholeValues(text, secrets))
    } catch {
      return undefined // no session folder, or the trace's file is gone: the run goes on untraced
    }
  }
}

/** A tracer for `tapir:run --trace=<file>`. */
export function runTrace(file: string, version: string, screenshots: boolean): RunTrace {
  return (secrets) =>
    new Tracer({file, source: 'run', title: 'tapir:run', version, screenshots, clean: (text) => maskWholeValues(text, secrets)})
}

/** The shared context (its one connection), telling the step's recording which words held `${env.NAME}`. */
function withEnvWords(context: VerbContext, envWords: NonNullable<VerbContext['envWords']>): VerbContext {
  return new Proxy(context, {
    get(target, key, receiver) {
      if (key === 'envWords') return envWords
      const value: unknown = Reflect.get(target, key, receiver)
      return typeof value === 'function' ? value.bind(target) : value
    },
  })
}
