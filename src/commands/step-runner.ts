import type {Config} from '@oclif/core/config'
import type {Outcome} from '../lib/output/outcome.js'
import {runSteps} from '../lib/run/execute.js'
import type {Step, StepLine} from '../lib/run/plan.js'
import {planSteps} from '../lib/run/plan.js'
import {reportWithoutSecrets, runOutcome} from '../lib/run/render.js'
import type {VerbContext} from '../lib/verbs/types.js'
import {produceCommand} from './produce-command.js'

/** Plans the step lines, then runs each through the same command class as the CLI, found in
 *  oclif's own command registry, in this process, sharing `context` (one VM Service
 *  connection). Never prints; a value read from the environment is masked in what it returns. */
export async function runStepLines(
  lines: ReadonlyArray<string | StepLine>,
  options: {keepGoing: boolean; json: boolean; config: Config; context: VerbContext; strict?: boolean},
): Promise<Outcome> {
  const {config} = options
  const {steps, secrets} = planSteps(lines, {isVerb: (verb) => config.findCommand(`tapir:${verb}`) !== undefined, env: process.env})
  const dispatch = (step: Step): Promise<Outcome> =>
    produceCommand(config, `tapir:${step.verb}`, step.argv, step.envWords ? withEnvWords(options.context, step.envWords) : options.context)
  const report = await runSteps(steps, dispatch, options.keepGoing, {strict: options.strict === true})
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
