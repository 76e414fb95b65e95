import {isJsonObject} from '../shape.js'
import type {Result} from '../verbs/types.js'

/** The fields a verb's answer reports a soft failure in: `false` means the step did not do what
 *  it said (find matched nothing, tap --until never saw its text, navigate was refused, fill or
 *  set_checkbox did not take). */
const SOFT_FIELDS = ['matched', 'untilMatched', 'navigated', 'verified'] as const

/** The soft failure a step's answer reports, in words (`untilMatched: false`), or undefined. A
 *  strict run (tapir test, tapir:run --strict) fails the step on it; the verb alone exits 0. */
export function softFailureOf(result: Result | undefined, options: {showValue?: boolean} = {}): string | undefined {
  if (!result) return undefined
  for (const field of SOFT_FIELDS) if (result[field] === false) return `${field}: false`
  const {effect} = result
  if (!isJsonObject(effect) || effect.verified !== false) return undefined
  // What the field held (a formatter's upper case, a parent that reverts it), as fill's own ⚠ line
  // says it; never for a step that typed a ${env.NAME} value, which a formatter may have changed
  // past what masking finds.
  const held = typeof effect.value === 'string' && options.showValue !== false ? effect.value : undefined
  if (held === undefined) return 'effect.verified: false'
  const shown = held.length > MAX_VALUE_CHARS ? `${held.slice(0, MAX_VALUE_CHARS)}…` : held
  return `effect.verified: false (the field holds ${JSON.stringify(shown)}, not the text sent)`
}

const MAX_VALUE_CHARS = 80
