import type {ExitCode} from '../output/exit-codes.js'
import type {Outcome} from '../output/outcome.js'
import {failureOutcome, outcomeText} from '../output/outcome.js'
import {boundHandle, withHandles} from './bindings.js'
import type {Step} from './plan.js'

export interface StepResult {
  step: string
  /** Its line in the --file it came from. */
  line?: number
  ok: boolean
  exitCode: ExitCode
  output: string
  /** The step's own outcome, to print it as the command would. */
  outcome: Outcome
}

export interface RunReport {
  steps: StepResult[]
  /** 1-based number of the first failing step, or null. */
  failed: number | null
}

/** Runs the steps in order, in this process, through `dispatch` (the same command classes as
 *  the CLI), each `@name` given the handle its `find --as` bound. Stops at the first failure
 *  unless `keepGoing`. */
export async function runSteps(steps: Step[], dispatch: (step: Step) => Promise<Outcome>, keepGoing: boolean): Promise<RunReport> {
  const results: StepResult[] = []
  const handles = new Map<string, string>()
  let failed: number | null = null
  for (const [index, step] of steps.entries()) {
    let outcome = await dispatch({...step, argv: withHandles(step.argv, handles)})
    if (outcome.exitCode === 0 && step.binding) {
      try {
        handles.set(step.binding.name, boundHandle(outcome.stdout, step.binding))
      } catch (error) {
        outcome = failureOutcome(error, step.argv.includes('--json'))
      }
    }
    const ok = outcome.exitCode === 0
    const line = step.line === undefined ? {} : {line: step.line}
    results.push({step: step.text, ...line, ok, exitCode: outcome.exitCode, output: outcomeText(outcome), outcome})
    if (!ok && failed === null) failed = index + 1
    if (!ok && !keepGoing) break
  }
  return {steps: results, failed}
}
