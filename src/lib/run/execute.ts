import type {ExitCode} from '../output/exit-codes.js'
import {EXIT} from '../output/exit-codes.js'
import type {Outcome} from '../output/outcome.js'
import {failureOutcome, outcomeText} from '../output/outcome.js'
import {boundHandle, withHandles} from './bindings.js'
import {heldOutcome} from './holds.js'
import type {Step} from './plan.js'
import {softFailureOf} from './strict.js'

export interface StepResult {
  step: string
  /** Its line in the --file it came from. */
  line?: number
  ok: boolean
  exitCode: ExitCode
  output: string
  /** The step's own outcome, to print it as the command would. */
  outcome: Outcome
  /** How long the step took, dispatch to answer. */
  durationMs?: number
}

/** How a run goes beyond its steps. */
export interface RunOptions {
  /** Fail a step whose answer reports a soft failure (src/lib/run/strict.ts), as tapir test does. */
  strict?: boolean
  /** Told of each step as it ends (tapir test's evidence is taken at a failure, before the next step). */
  onStep?(result: StepResult, index: number): Promise<void> | void
}

export interface RunReport {
  steps: StepResult[]
  /** 1-based number of the first failing step, or null. */
  failed: number | null
}

/** Runs the steps in order, in this process, through `dispatch` (the same reader and verb run
 *  as the CLI's, src/cli/step-lines.ts), each `@name` given the handle its `find --as` bound. Stops at the first failure
 *  unless `keepGoing`. */
export async function runSteps(
  steps: Step[],
  dispatch: (step: Step) => Promise<Outcome>,
  keepGoing: boolean,
  options: RunOptions = {},
): Promise<RunReport> {
  const results: StepResult[] = []
  const handles = new Map<string, string>()
  let failed: number | null = null
  for (const [index, step] of steps.entries()) {
    const started = Date.now()
    let outcome = await dispatch({...step, argv: withHandles(step.argv, handles)})
    if (step.holds !== undefined) outcome = heldOutcome(step.verb, step.holds, outcome, step.envWords === undefined)
    else if (options.strict) outcome = strictOutcome(step, outcome)
    if (outcome.exitCode === 0 && step.binding) {
      try {
        handles.set(step.binding.name, boundHandle(outcome.result, step.binding))
      } catch (error) {
        outcome = failureOutcome(error, step.argv.includes('--json'))
      }
    }
    const ok = outcome.exitCode === 0
    const line = step.line === undefined ? {} : {line: step.line}
    const result = {
      step: step.text,
      ...line,
      ok,
      exitCode: outcome.exitCode,
      output: outcomeText(outcome),
      outcome,
      durationMs: Date.now() - started,
    }
    results.push(result)
    await options.onStep?.(result, index)
    if (!ok && failed === null) failed = index + 1
    if (!ok && !keepGoing) break
  }
  return {steps: results, failed}
}

/** A step that exited 0 while its answer reports a soft failure, as a failed step (exit 1). */
function strictOutcome(step: Step, outcome: Outcome): Outcome {
  const soft = outcome.exitCode === 0 ? softFailureOf(outcome.result, {showValue: step.envWords === undefined}) : undefined
  if (soft === undefined) return outcome
  const message = `${step.verb} answered ${soft}, so a strict run fails it`
  return {
    ...outcome,
    stderr: [...outcome.stderr, `✗ ${message}`],
    exitCode: EXIT.failed,
    error: {error: {message, exitCode: EXIT.failed}},
  }
}
