import {TapirError} from '../errors.js'
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

/** `data.details` is either JSON `{message, envelope}` or plain text (possibly with a stack). */
export function parseDetails(details: string): {message: string; envelope?: Record<string, unknown>} {
  try {
    const value = JSON.parse(details) as {message?: unknown; envelope?: unknown}
    if (value && typeof value === 'object' && typeof value.message === 'string') {
      const envelope = value.envelope && typeof value.envelope === 'object' ? (value.envelope as Record<string, unknown>) : undefined
      return {message: value.message, envelope}
    }
  } catch {
    // plain text
  }
  return {message: details.split('\n')[0] || details}
}
