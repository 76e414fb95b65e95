import {UsageError} from '../errors.js'
import {EXIT} from '../output/exit-codes.js'
import type {Outcome} from '../output/outcome.js'
import {isJsonObject} from '../shape.js'
import {verbNamed} from '../verbs/index.js'

/** A step's own `--holds=<text>` (never sent to the app). */
const HOLDS = /^--holds(?<equals>=|$)/

/** The line a text verb prints when the field keeps something other than the text sent
 *  (src/lib/verbs/text-verbs.ts). */
const UNVERIFIED_LINE = '⚠ The field holds '

/**
 * Takes a fill or type step's `--holds=<text>` out of its argv (but where `values` holds a
 * word's place: another flag's value): what the field is to hold after
 * the settle when the app changes what is typed (a formatter's upper case). A recording writes it
 * when the field held something else than the text sent, so the replay checks what was seen
 * instead of failing on `effect.verified: false`.
 */
export function takeHolds(
  verb: string,
  argv: readonly string[],
  values: ReadonlySet<number> = new Set(),
): {argv: string[]; holds?: string} {
  const rest: string[] = []
  let holds: string | undefined
  for (let index = 0; index < argv.length; index++) {
    const word = argv[index] ?? ''
    // A flag's value (`--text --holds=x`) is the verb's word.
    const flag = values.has(index) ? null : HOLDS.exec(word)
    if (!flag) {
      rest.push(word)
      continue
    }
    const value = flag.groups?.equals === '=' ? word.slice(flag[0].length) : argv[++index]
    if (value === undefined) throw new UsageError('--holds needs a value (--holds=<what the field holds after the settle>).')
    holds = value
  }
  if (holds === undefined) return {argv: rest}
  const rule = verbNamed(verb)?.record
  if (rule?.as !== 'step' || rule.secret !== 'text')
    throw new UsageError(`--holds belongs on a fill or type step (fill --ref=… --text=… --holds=…), not on ${verb}.`)
  return {argv: rest, holds}
}

/**
 * A step with `--holds`: it passes when the field holds exactly that after the settle (fill's ⚠
 * line is then what the step expects, so it is dropped), and fails (exit 1) otherwise, saying
 * what the field held unless the step typed a `${env.NAME}` value.
 */
export function heldOutcome(verb: string, holds: string, outcome: Outcome, showValue: boolean): Outcome {
  if (outcome.exitCode !== EXIT.ok) return outcome
  const effect = isJsonObject(outcome.result) && isJsonObject(outcome.result.effect) ? outcome.result.effect : undefined
  const value = effect?.value
  if (value === holds) return {...outcome, stderr: outcome.stderr.filter((line) => !line.startsWith(UNVERIFIED_LINE))}
  const message =
    typeof value === 'string' && showValue
      ? `${verb}: the field holds ${JSON.stringify(shortened(value))}, not ${JSON.stringify(shortened(holds))} as --holds says`
      : `${verb}: the field does not hold what --holds says`
  return {
    ...outcome,
    stderr: [...outcome.stderr, `✗ ${message}`],
    exitCode: EXIT.failed,
    error: {error: {message, exitCode: EXIT.failed}},
  }
}

const MAX_VALUE_CHARS = 80

function shortened(value: string): string {
  return value.length > MAX_VALUE_CHARS ? `${value.slice(0, MAX_VALUE_CHARS)}…` : value
}
