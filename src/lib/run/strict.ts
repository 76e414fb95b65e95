import {isJsonObject} from '../shape.js'
import type {Result} from '../verbs/types.js'

/** The fields a verb's answer reports a soft failure in: `false` means the step did not do what
 *  it said (find matched nothing, tap --until never saw its text, navigate was refused, fill or
 *  set_checkbox did not take). */
const SOFT_FIELDS = ['matched', 'untilMatched', 'navigated', 'verified'] as const

/** The soft failure a step's answer reports, in words (`untilMatched: false`), or undefined. A
 *  strict run (tapir test, tapir:run --strict) fails the step on it; the verb alone exits 0. */
export function softFailureOf(result: Result | undefined): string | undefined {
  if (!result) return undefined
  for (const field of SOFT_FIELDS) if (result[field] === false) return `${field}: false`
  const {effect} = result
  if (isJsonObject(effect) && effect.verified === false) return 'effect.verified: false'
  return undefined
}
