import {TapirError, UsageError} from '../errors.js'
import {isJsonObject} from '../shape.js'
import {REF_PARAMS} from '../verbs/index.js'
import type {Result} from '../verbs/types.js'

/** A find step's `--as=<name>`: the handle it returns is bound to the name, and it must match
 *  `matches` widgets (1 unless `--matches=N` says otherwise; a recording writes what it saw).
 *  An observe step's `--as=<name> --label=<label>`: the handle of the candidate with that label,
 *  the `nth` of them (1 unless `--nth=K`), of which there must be `matches`. */
export interface Binding {
  name: string
  matches: number
  label?: string
  nth?: number
}

/** The run's own flags of a binding step: they never reach the verb. */
const BINDING_FLAGS = /^--(?<which>as|matches|label|nth)(?<equals>=|$)/

const NAME = /^[A-Za-z_][A-Za-z0-9_-]{0,63}$/
/** Whether a step may give this flag a bound name (`--ref=@signin`): a param of the catalogue
 *  that names a widget by ref, in either spelling the reader takes (`--start-ref` as
 *  `--startRef`); only a value starting with @ is looked up. */
const isRefFlag = (flag: string): boolean => REF_PARAMS.has(flag.replace(/-([a-z])/g, (_dash, letter: string) => letter.toUpperCase()))

/** Takes the run's own `--as`, `--matches` (and on observe `--label`, `--nth`) out of a step's
 *  argv (they never reach the verb), but not a word whose place `values` holds (another flag's value). */
export function takeBinding(
  verb: string,
  argv: readonly string[],
  values: ReadonlySet<number> = new Set(),
): {argv: string[]; binding?: Binding} {
  const rest: string[] = []
  const given: Partial<Record<'as' | 'matches' | 'label' | 'nth', string>> = {}
  // observe has no --label or --nth of its own; find's are not the run's.
  const ours = verb === 'observe' ? BINDING_FLAGS : /^--(?<which>as|matches)(?<equals>=|$)/
  for (let index = 0; index < argv.length; index++) {
    const word = argv[index] ?? ''
    // A flag's value (`--text --as=x`) is the verb's word.
    const flag = values.has(index) ? null : ours.exec(word)
    const which = flag?.groups?.which as keyof typeof given | undefined
    if (!flag || which === undefined) {
      rest.push(word)
      continue
    }
    const value = flag.groups?.equals === '=' ? word.slice(flag[0].length) : argv[++index]
    if (value === undefined)
      throw new UsageError(`--${which} needs a value (--${which}=<${which === 'as' ? 'name' : which === 'label' ? 'label' : 'count'}>).`)
    given[which] = value
  }
  const {as: name, matches, label, nth} = given
  if (name === undefined && matches === undefined && label === undefined && nth === undefined) return {argv: rest}
  if (verb !== 'find' && verb !== 'observe')
    throw new UsageError(`--as and --matches belong on a find step (find --text=… --as=<name>) or an observe step, not on ${verb}.`)
  if (name === undefined)
    throw new UsageError(
      `--${matches !== undefined ? 'matches' : label !== undefined ? 'label' : 'nth'} needs --as=<name> on the same ${verb} step.`,
    )
  if (!NAME.test(name)) throw new UsageError(`--as=${name}: a name is a letter or _ then letters, digits, _ or - (at most 64).`)
  const count = wholeNumber('matches', matches, `how many widgets the ${verb} must match`)
  if (verb === 'find') return {argv: rest, binding: {name, matches: count}}
  if (label === undefined) throw new UsageError(`observe --as=${name} needs --label=<label>: the label of the candidate to bind.`)
  const index = wholeNumber('nth', nth, 'which of the candidates with that label, counted from 1')
  if (index > count) throw new UsageError(`--nth=${index} is past --matches=${count}: the candidate must be one of those it counts.`)
  return {argv: rest, binding: {name, matches: count, label, nth: index}}
}

function wholeNumber(flag: string, text: string | undefined, what: string): number {
  const count = text === undefined ? 1 : Number(text)
  if (!Number.isInteger(count) || count < 1 || !/^\d+$/.test(text ?? '1'))
    throw new UsageError(`--${flag}=${text}: give ${what}, a whole number of at least 1.`)
  return count
}

/** The names a step uses (`--ref=@name`, `--ref @name`). */
export function namesUsed(argv: readonly string[]): string[] {
  const names: string[] = []
  for (const [index, word] of argv.entries()) {
    const flag = /^--(?<name>[A-Za-z-]+)(?<equals>=|$)/.exec(word)
    if (!flag || !isRefFlag(flag.groups?.name ?? '')) continue
    const value = flag.groups?.equals === '=' ? word.slice(flag[0].length) : argv[index + 1]
    if (value?.startsWith('@')) names.push(value.slice(1))
  }
  return names
}

/** The argv with each `@name` a ref flag gives replaced by the handle bound to it. */
export function withHandles(argv: readonly string[], handles: ReadonlyMap<string, string>): string[] {
  return argv.map((word, index) => {
    const {name, bound} = /^--(?<name>[A-Za-z-]+)=@(?<bound>.*)$/.exec(word)?.groups ?? {}
    if (name !== undefined && bound !== undefined && isRefFlag(name)) return `--${name}=${handles.get(bound) ?? word}`
    const previous = /^--(?<name>[A-Za-z-]+)$/.exec(argv[index - 1] ?? '')?.groups?.name
    if (previous !== undefined && isRefFlag(previous) && word.startsWith('@')) return handles.get(word.slice(1)) ?? word
    return word
  })
}

/** What a bound find or observe answered: its handle, or why the locator no longer holds (exit 3). */
export function boundHandle(answer: Result | undefined, binding: Binding): string {
  if (binding.label !== undefined) return observedHandle(answer, binding, binding.label)
  const {ref, matched, matchCount} = answer ?? {}
  if (matched !== true || typeof ref !== 'string')
    throw new TapirError(`found no widget for @${binding.name} (${binding.matches} matched when it was written)`, 'app')
  if (typeof matchCount === 'number' && matchCount !== binding.matches)
    throw new TapirError(
      `found ${matchCount} widgets for @${binding.name}, not the ${binding.matches} it matched when it was written`,
      'app',
    )
  return ref
}

/** The candidate an observe step binds: the `nth` with the label, of exactly `matches` such. */
function observedHandle(answer: Result | undefined, binding: Binding, label: string): string {
  const candidates = isJsonObject(answer) && Array.isArray(answer.candidates) ? answer.candidates : []
  const refs = candidates.flatMap((entry) =>
    isJsonObject(entry) && entry.label === label && typeof entry.ref === 'string' ? [entry.ref] : [],
  )
  const ref = refs[(binding.nth ?? 1) - 1]
  if (refs.length !== binding.matches || ref === undefined)
    throw new TapirError(
      `found ${refs.length} candidates labelled ${JSON.stringify(label)} for @${binding.name}, not the ${binding.matches} there were when it was written`,
      'app',
    )
  return ref
}
