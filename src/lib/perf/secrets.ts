import {isJsonObject} from '../shape.js'
import type {Scenario} from './scenario-types.js'

export const MASK = '***'

/** The scenario as the run file records it: typed values as text, a secret as `***`. */
export function scenarioJson(scenario: Scenario): Record<string, unknown> {
  const {secrets: _secrets, ...shown} = scenario
  const json: unknown = JSON.parse(
    JSON.stringify(shown, (_key, value: unknown) => {
      if (isJsonObject(value) && typeof value.text === 'string' && typeof value.secret === 'boolean' && Object.keys(value).length === 2) {
        return value.secret ? MASK : value.text
      }
      return value
    }),
  )
  return isJsonObject(json) ? json : {}
}

/** Replaces every secret inside a text (an app's error echoing what was typed, a message). */
export function maskSecrets(text: string, secrets: readonly string[]): string {
  let out = text
  for (const secret of [...secrets].sort((a, b) => b.length - a.length)) out = out.split(secret).join(MASK)
  return out
}

/** Masks secrets anywhere inside a JSON value (strings only). */
export function maskDeep<T>(value: T, secrets: readonly string[]): T {
  if (secrets.length === 0) return value
  return JSON.parse(JSON.stringify(value, (_key, item: unknown) => (typeof item === 'string' ? maskSecrets(item, secrets) : item))) as T
}
