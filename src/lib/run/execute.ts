import type {ExitCode} from '../output/exit-codes.js'
import type {Outcome} from '../output/outcome.js'
import {outcomeText} from '../output/outcome.js'
import type {Step} from './plan.js'

export interface StepResult {
  step: string
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
 *  the CLI). Stops at the first failure unless `keepGoing`. */
export async function runSteps(steps: Step[], dispatch: (step: Step) => Promise<Outcome>, keepGoing: boolean): Promise<RunReport> {
  const results: StepResult[] = []
  let failed: number | null = null
  for (const [index, step] of steps.entries()) {
    const outcome = await dispatch(step)
    const ok = outcome.exitCode === 0
    results.push({step: step.text, ok, exitCode: outcome.exitCode, output: outcomeText(outcome), outcome})
    if (!ok && failed === null) failed = index + 1
    if (!ok && !keepGoing) break
  }
  return {steps: results, failed}
}
