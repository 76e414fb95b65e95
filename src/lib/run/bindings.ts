import {TapirError, UsageError} from '../errors.js'
import type {Result} from '../verbs/types.js'

/** A find step's `--as=<name>`: the handle it returns is bound to the name, and it must match
 *  `matches` widgets (1 unless `--matches=N` says otherwise; a recording writes what it saw). */
export interface Binding {
  name: string
  matches: number
}

const NAME = /^[A-Za-z_][A-Za-z0-9_-]{0,63}$/
/** The flags a step may give a bound name to (`--ref=@signin`), in every spelling the reader takes
 *  (`--start-ref` as `--startRef`); only a value starting with @ is looked up. */
const REF_FLAGS = ['ref', 'startRef', 'endRef', 'start-ref', 'end-ref']

/** Takes the run's own `--as` and `--matches` out of a step's argv (they never reach the verb). */
export function takeBinding(verb: string, argv: readonly string[]): {argv: string[]; binding?: Binding} {
  const rest: string[] = []
  let name: string | undefined
  let matches: string | undefined
  for (let index = 0; index < argv.length; index++) {
    const word = argv[index] ?? ''
    const flag = /^--(?<which>as|matches)(?<equals>=|$)/.exec(word)
    const which = flag?.groups?.which
    if (!flag || which === undefined) {
      rest.push(word)
      continue
    }
    const value = flag.groups?.equals === '=' ? word.slice(flag[0].length) : argv[++index]
    if (value === undefined) throw new UsageError(`--${which} needs a value (--${which}=<${which === 'as' ? 'name' : 'count'}>).`)
    if (which === 'as') name = value
    else matches = value
  }
  if (name === undefined && matches === undefined) return {argv: rest}
  if (verb !== 'find') throw new UsageError(`--as and --matches belong on a find step (find --text=… --as=<name>), not on ${verb}.`)
  if (name === undefined) throw new UsageError('--matches needs --as=<name> on the same find step.')
  if (!NAME.test(name)) throw new UsageError(`--as=${name}: a name is a letter or _ then letters, digits, _ or - (at most 64).`)
  const count = matches === undefined ? 1 : Number(matches)
  if (!Number.isInteger(count) || count < 1 || !/^\d+$/.test(matches ?? '1'))
    throw new UsageError(`--matches=${matches}: give how many widgets the find must match, a whole number of at least 1.`)
  return {argv: rest, binding: {name, matches: count}}
}

/** The names a step uses (`--ref=@name`, `--ref @name`). */
export function namesUsed(argv: readonly string[]): string[] {
  const names: string[] = []
  for (const [index, word] of argv.entries()) {
    const flag = /^--(?<name>[A-Za-z-]+)(?<equals>=|$)/.exec(word)
    if (!flag || !REF_FLAGS.includes(flag.groups?.name ?? '')) continue
    const value = flag.groups?.equals === '=' ? word.slice(flag[0].length) : argv[index + 1]
    if (value?.startsWith('@')) names.push(value.slice(1))
  }
  return names
}

/** The argv with each `@name` a ref flag gives replaced by the handle bound to it. */
export function withHandles(argv: readonly string[], handles: ReadonlyMap<string, string>): string[] {
  return argv.map((word, index) => {
    const {name, bound} = /^--(?<name>[A-Za-z-]+)=@(?<bound>.*)$/.exec(word)?.groups ?? {}
    if (name !== undefined && bound !== undefined && REF_FLAGS.includes(name)) return `--${name}=${handles.get(bound) ?? word}`
    const previous = /^--(?<name>[A-Za-z-]+)$/.exec(argv[index - 1] ?? '')?.groups?.name
    if (previous !== undefined && REF_FLAGS.includes(previous) && word.startsWith('@')) return handles.get(word.slice(1)) ?? word
    return word
  })
}

/** What a bound find answered: its handle, or why the locator no longer holds (exit 3). */
export function boundHandle(answer: Result | undefined, binding: Binding): string {
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
