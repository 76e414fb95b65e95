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

/** The text with every whole occurrence of a secret replaced by `***`, longest secret first. */
export function maskWholeValues(text: string, secrets: readonly string[]): string {
  let out = text
  for (const secret of [...new Set(secrets)].filter((s) => s !== '').sort((a, b) => b.length - a.length)) {
    let result = ''
    let from = 0
    for (let at = out.indexOf(secret); at >= 0; at = out.indexOf(secret, at + 1)) {
      if (at < from || !standsAlone(out, at, secret)) continue
      result += out.slice(from, at) + MASK
      from = at + secret.length
    }
    out = result + out.slice(from)
  }
  return out
}

/** Every string inside a JSON value, masked as maskWholeValues does. */
export function maskWholeValuesDeep<T>(value: T, secrets: readonly string[]): T {
  if (secrets.length === 0) return value
  return JSON.parse(JSON.stringify(value, (_key, item: unknown) => (typeof item === 'string' ? maskWholeValues(item, secrets) : item))) as T
}
