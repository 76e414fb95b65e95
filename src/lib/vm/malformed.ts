import {TapirError} from '../errors.js'

const PREVIEW_CHARS = 80

export function isJsonObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}

/** A JSON value as a reader needs it named: its kind, and a short preview of it. */
export function describeJson(value: unknown): string {
  if (value === undefined) return 'nothing'
  if (value === null) return 'null'
  const kind = Array.isArray(value) ? 'an array' : typeof value === 'object' ? 'an object' : `a ${typeof value}`
  const text = JSON.stringify(value)
  return `${kind} (${text.length > PREVIEW_CHARS ? `${text.slice(0, PREVIEW_CHARS - 1)}…` : text})`
}

/** An answer from the app that does not have the shape the protocol gives it (exit 3). */
export function malformedAnswer(where: string, what: string): TapirError {
  return new TapirError(`The app sent a malformed answer to ${where}: ${what}.`, 'app')
}
