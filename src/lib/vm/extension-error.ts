import {TapirError} from '../errors.js'
import {object, optional, readAs, record, string, anything} from '../shape.js'
import type {RpcError} from './rpc-error.js'

const METHOD_NOT_FOUND = -32601

/** Maps an error an `ext.tapir.*` call came back with to the line a user reads (exit 3). */
export function extensionFailure(method: string, error: RpcError): TapirError {
  if (error.code === METHOD_NOT_FOUND) {
    return new TapirError(
      `The app does not answer ${method}: tapir is not installed in it (add TapirPlugin.install() to main()), or the app is still booting.`,
      'app',
      {code: error.code},
    )
  }
  const details = error.details
  if (details === undefined) return new TapirError(`${method} failed: ${error.rpcMessage} (${error.code}).`, 'app', {code: error.code})
  const parsed = parseDetails(details)
  return new TapirError(parsed.message, 'app', {code: error.code, ...(parsed.envelope ? {envelope: parsed.envelope} : {})})
}

/** The JSON form of `data.details`: the human message and the app's error envelope. */
const detailsJson = object({message: string, envelope: optional(record(anything))})

/** `data.details` is either JSON `{message, envelope}` or plain text (possibly with a stack). */
export function parseDetails(details: string): {message: string; envelope?: Record<string, unknown>} {
  let value: unknown
  try {
    value = JSON.parse(details)
  } catch {
    // plain text
  }
  const read = readAs(detailsJson, value)
  if ('value' in read) return {message: read.value.message, envelope: read.value.envelope}
  return {message: details.split('\n')[0] || details}
}
