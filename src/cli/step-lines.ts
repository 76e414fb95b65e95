import type {Outcome} from '../lib/output/outcome.js'
import {runSteps} from '../lib/run/execute.js'
import type {Step, StepLine} from '../lib/run/plan.js'
import {planSteps} from '../lib/run/plan.js'
import {reportWithoutSecrets, runOutcome} from '../lib/run/render.js'
import {verbNamed} from '../lib/verbs/index.js'
import type {VerbContext} from '../lib/verbs/types.js'
import {verbLineOutcome} from './verb-outcome.js'

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
  options: {keepGoing: boolean; json: boolean; context: VerbContext; strict?: boolean},
): Promise<Outcome> {
  const {steps, secrets} = planSteps(lines, {isVerb: (verb) => verbNamed(verb) !== undefined, env: process.env})
  const report = await runSteps(steps, (step) => stepOutcome(step, options.context), options.keepGoing, {strict: options.strict === true})
  return runOutcome(reportWithoutSecrets(report, secrets), steps.length, options.json)
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
