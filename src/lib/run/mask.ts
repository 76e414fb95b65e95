import {MASK} from '../perf/secrets.js'

const WORD = /[\p{L}\p{N}_]/u

/** Whether the secret at `at` stands as a whole value: not the middle of a longer word (a
 *  one-letter secret "e" is not masked inside "e2" or "Filled"). */
function standsAlone(text: string, at: number, secret: string): boolean {
  const before = text[at - 1]
  const after = text[at + secret.length]
  const wordStart = WORD.test(secret.at(0) ?? '')
  const wordEnd = WORD.test(secret.at(-1) ?? '')
  return (!wordStart || before === undefined || !WORD.test(before)) && (!wordEnd || after === undefined || !WORD.test(after))
}

/** The text with every whole occurrence of a secret replaced by `***`, longest secret first, in
 *  any case: an app may show a typed value changed in case (a formatter's "GRACE" for "grace"). */
export function maskWholeValues(text: string, secrets: readonly string[]): string {
  let out = text
  const spellings = secrets.flatMap((secret) => [secret, secret.toUpperCase(), secret.toLowerCase()])
  for (const secret of [...new Set(spellings)].filter((s) => s !== '').sort((a, b) => b.length - a.length)) {
    let result = ''
    let from = 0
    const search = new RegExp(escaped(secret), 'giu')
    for (let found = search.exec(out); found !== null; found = search.exec(out)) {
      const at = found.index
      search.lastIndex = at + 1
      if (at < from || !standsAlone(out, at, found[0])) continue
      result += out.slice(from, at) + MASK
      from = at + found[0].length
    }
    out = result + out.slice(from)
  }
  return out
}

function escaped(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')
}

/** Every string inside a JSON value, masked as maskWholeValues does. */
export function maskWholeValuesDeep<T>(value: T, secrets: readonly string[]): T {
  if (secrets.length === 0) return value
  return JSON.parse(JSON.stringify(value, (_key, item: unknown) => (typeof item === 'string' ? maskWholeValues(item, secrets) : item))) as T
}
