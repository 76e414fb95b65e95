import type {Config} from '@oclif/core/config'
import type {Outcome} from '../lib/output/outcome.js'
import {runSteps} from '../lib/run/execute.js'
import type {Step} from '../lib/run/plan.js'
import {planSteps} from '../lib/run/plan.js'
import {runOutcome} from '../lib/run/render.js'
import type {VerbContext} from '../lib/verbs/types.js'
import type {TapirCommand} from './tapir-command.js'

type StepCommand = new (argv: string[], config: Config) => TapirCommand

/** Plans the step lines, then runs each through the same command class as the CLI, in this
 *  process, sharing `context` (one VM Service connection). Never prints. */
export async function runStepLines(lines: string[], options: {keepGoing: boolean; json: boolean; config: Config; context: VerbContext}): Promise<Outcome> {
  // Imported here: the command index imports the run command, which imports this module.
  const {COMMANDS} = await import('./index.js')
  const commands = COMMANDS as unknown as Record<string, StepCommand | undefined>
  const steps = planSteps(lines, (verb) => Boolean(commands[`tapir:${verb}`]))
  const dispatch = (step: Step): Promise<Outcome> => {
    const command = new commands[`tapir:${step.verb}`]!(step.argv, options.config)
    command.sharedContext = options.context
    return command.produce()
  }
  const report = await runSteps(steps, dispatch, options.keepGoing)
  return runOutcome(report, steps.length, options.json)
}
