import {UsageError, messageOf} from '../errors.js'
import {nearestName} from '../nearest-name.js'
import {VERBS, verbNamed} from '../verbs/index.js'
import {takeBinding, namesUsed, type Binding} from './bindings.js'
import {takeHolds} from './holds.js'
import {interpolateWords} from './step-env.js'
import {tokenizeStep} from './tokenize.js'

export interface Step {
  /** The line as written, for the progress lines (`${env.NAME}` as written, never its value). */
  text: string
  verb: string
  argv: string[]
  /** Its line in the --file it came from. */
  line?: number
  /** `find … --as=<name>` (or `observe … --as=<name> --label=…`): bind the handle it returns. */
  binding?: Binding
  /** A fill or type step's `--holds=<text>`: what the field is to hold after it (src/lib/run/holds.ts). */
  holds?: string
  /** Its words that held `${env.NAME}`: as the verb gets them, and as written (for a recording). */
  envWords?: Array<[given: string, written: string]>
}

/** A step line, and where it stands in its file when it came from one. */
export interface StepLine {
  text: string
  line?: number
}

/** What a plan needs from the world. */
export interface PlanContext {
  isVerb(name: string): boolean
  /** The places of the words the one reader takes as a flag's value (`--text --as=x`): never
   *  the run's own flags. None when not given. */
  valueWords?(verb: string, argv: readonly string[]): ReadonlySet<number>
  env: Readonly<Record<string, string | undefined>>
}

export interface Plan {
  steps: Step[]
  /** Values read from the environment: never shown in any output. */
  secrets: string[]
}

/** Commands outside the catalogue that do not act on the connected app either; a verb says so in
 *  its `step` rule. */
const COMMANDS_OFF_THE_APP = new Set(['install', 'doctor'])
/** Flags of the run itself; a step inherits them. */
const RUN_FLAGS = ['--state', '--timeout']

/** Reads every step and refuses the run before anything is sent when any step is unfit: a bad
 *  line, an unset `${env.NAME}`, a `@name` no earlier `find --as` binds. */
export function planSteps(input: ReadonlyArray<string | StepLine>, context: PlanContext): Plan {
  const lines = input.map((entry) => (typeof entry === 'string' ? {text: entry} : entry))
  if (lines.length === 0)
    throw new UsageError((words) =>
      words.only(
        'No steps. Pass verb lines as arguments (tapir tapir:run "tap --ref=e5" "snap") or with --file <path|->.',
        'No steps: give steps at least one verb line.',
      ),
    )
  const secrets: string[] = []
  const bound = new Set<string>()
  const steps = lines.map(({text: line, line: number}, index) => {
    const where = stepWhere(index, number, line)
    const valueWords = (verb: string, argv: readonly string[]) => context.valueWords?.(verb, argv) ?? new Set<number>()
    const step = planStep(line, where, index === lines.length - 1, context.isVerb, valueWords)
    const {words, secrets: found, problems, envWords} = interpolateWords(step.argv, context.env)
    if (problems.length > 0) throw new UsageError(`${where}: ${problems.join('; ')}.`)
    secrets.push(...found)
    let taken
    try {
      const held = takeHolds(step.verb, words, valueWords(step.verb, words))
      taken = {...takeBinding(step.verb, held.argv, valueWords(step.verb, held.argv)), holds: held.holds}
    } catch (error) {
      throw new UsageError(`${where}: ${messageOf(error)}`)
    }
    for (const name of namesUsed(taken.argv))
      if (!bound.has(name))
        throw new UsageError(
          `${where}: @${name} is not bound: an earlier step must be find … --as=${name} (or observe … --as=${name} --label=…).`,
        )
    if (taken.binding) bound.add(taken.binding.name)
    return {
      ...step,
      argv: taken.argv,
      ...(number === undefined ? {} : {line: number}),
      ...(taken.binding ? {binding: taken.binding} : {}),
      ...(taken.holds === undefined ? {} : {holds: taken.holds}),
      ...(envWords.length > 0 ? {envWords} : {}),
    }
  })
  return {steps, secrets}
}

function stepWhere(index: number, line: number | undefined, text: string): string {
  return `step ${index + 1}${line === undefined ? '' : ` (line ${line})`} (${text.trim()})`
}

function planStep(
  line: string,
  where: string,
  last: boolean,
  isVerb: (name: string) => boolean,
  valueWords: (verb: string, argv: readonly string[]) => ReadonlySet<number>,
): Step {
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
  const rule = verbNamed(verb)?.step
  if (rule === 'never' || COMMANDS_OFF_THE_APP.has(verb))
    throw new UsageError(`${where}: ${verb} does not act on the connected app, so it cannot be a step; run it on its own.`)
  if (!isVerb(verb)) {
    const meant = nearestName(verb, VERBS.map((known) => known.name).filter(isVerb))
    throw new UsageError(
      (words) =>
        `${where}: unknown verb "${verb}".${meant === undefined ? '' : ` Did you mean ${meant}?`} ${words.only('Steps are tapir verbs without the tapir: prefix', "A step is a tool's name without tapir_, then its arguments as --name=value words")} (tap, fill, snap, ...).`,
    )
  }
  if (rule === 'last' && !last) throw new UsageError(`${where}: ${verb} ends the app, so it can only be the last step.`)
  const values = valueWords(verb, argv)
  const runFlag = argv.find((word, at) => !values.has(at) && RUN_FLAGS.some((flag) => word === flag || word.startsWith(`${flag}=`)))
  if (runFlag)
    throw new UsageError(
      (words) =>
        `${where}: ${words.only(`${runFlag.split('=')[0]} belongs to tapir:run itself`, 'a step cannot set the session or the timeout')}; every step uses the run's session and timeout.`,
    )
  return {text: line.trim(), verb, argv}
}

/** Step lines from a --file, each with its line number: blank lines and # comments skipped. */
export function stepLines(text: string): StepLine[] {
  return text
    .split(/\r?\n/)
    .map((line, index) => ({text: line, line: index + 1}))
    .filter(({text: line}) => line.trim() !== '' && !line.trim().startsWith('#'))
}
