import {UsageError, messageOf} from '../errors.js'
import {tokenizeStep} from './tokenize.js'

export interface Step {
  /** The line as written, for the progress lines. */
  text: string
  verb: string
  argv: string[]
}

/** Verbs that do not act on the connected app, so they have no place in a run. */
const NOT_ON_THE_APP = new Set(['resize', 'device', 'install', 'doctor', 'perf_campaign', 'perf_compare'])
/** Verbs after which the app is gone (or restarted): only the last step may be one. */
const ENDS_THE_APP = new Set(['close_app', 'perf_run'])
/** Flags of the run itself; a step inherits them. */
const RUN_FLAGS = ['--state', '--timeout']

/** Reads every step and refuses the run before anything is sent when any step is unfit. */
export function planSteps(lines: string[], isVerb: (name: string) => boolean): Step[] {
  if (lines.length === 0)
    throw new UsageError((words) =>
      words.only(
        'No steps. Pass verb lines as arguments (tapir tapir:run "tap --ref=e5" "snap") or with --file <path|->.',
        'No steps: give steps at least one verb line.',
      ),
    )
  return lines.map((line, index) => {
    const where = `step ${index + 1} (${line.trim()})`
    let words: string[]
    try {
      words = tokenizeStep(line)
    } catch (error) {
      throw new UsageError(`${where}: ${messageOf(error)}`)
    }
    const [first, ...argv] = words
    if (!first) throw new UsageError(`${where} is empty.`)
    const verb = first.replace(/^tapir:/, '')
    if (verb === 'run') throw new UsageError(`${where}: a run cannot contain another run.`)
    if (NOT_ON_THE_APP.has(verb))
      throw new UsageError(`${where}: ${verb} does not act on the connected app, so it cannot be a step; run it on its own.`)
    if (!isVerb(verb))
      throw new UsageError(
        (words) =>
          `${where}: unknown verb "${verb}". ${words.only('Steps are tapir verbs without the tapir: prefix', "Steps are verb lines in the CLI's syntax, without its tapir prefix")} (tap, fill, snap, ...).`,
      )
    if (ENDS_THE_APP.has(verb) && index !== lines.length - 1)
      throw new UsageError(`${where}: ${verb} ends the app, so it can only be the last step.`)
    const runFlag = argv.find((word) => RUN_FLAGS.some((flag) => word === flag || word.startsWith(`${flag}=`)))
    if (runFlag)
      throw new UsageError(
        (words) =>
          `${where}: ${words.only(`${runFlag.split('=')[0]} belongs to tapir:run itself`, 'a step cannot set the session or the timeout')}; every step uses the run's session and timeout.`,
      )
    return {text: line.trim(), verb, argv}
  })
}

/** Step lines from a --file: one per line, blank lines and # comments skipped. */
export function stepLines(text: string): string[] {
  return text.split(/\r?\n/).filter((line) => line.trim() !== '' && !line.trim().startsWith('#'))
}
