import {TapirError} from '../errors.js'
import {object, optional, readAs, record, string, anything} from '../shape.js'
import type {RpcError} from './rpc-error.js'

const METHOD_NOT_FOUND = -32601

/** `wrapInErrorHandlerAsync` in DWDS: a failure that is not an RPCError, as -32603 with this text. */
const DWDS_WRAPPER = 'Unexpected DWDS error for callServiceExtension: '
/** WebSocketProxyService: the page's client reported `success: false` (the call threw there). */
const CLIENT_FAILED = 'Service extension failed in some clients: '

/** The page's answer when its reloader is not the DDC library-bundle one: dwds/web/reloader/
 *  manager.dart `handleServiceExtension` gives null for any other restarter, and web/client.dart
 *  `handleServiceExtensionRequest` answers that with success: false and these words. */
const NOT_SUPPORTED = 'Service extension not supported'

/** Whether a call in DWDS's WebSocket mode reached a page that has not registered it (yet): the
 *  page's client reported a failure that is not the format's refusal. */
export function pageCouldNotRun(error: RpcError): boolean {
  const text = error.rpcMessage
  return text.startsWith(DWDS_WRAPPER + CLIENT_FAILED) && !text.endsWith(NOT_SUPPORTED)
}

/** What DWDS in WebSocket mode says when a call fails outside the app's own answer. */
function dwdsFailure(method: string, text: string, code: number): TapirError {
  if (/^TimeoutException\b.*timed out/.test(text)) {
    return new TapirError(
      `${method}: the web debug service (DWDS in WebSocket mode, flutter run -d web-server) stops waiting for any call after 10 s, and the app had not answered. The app may still carry it out: look at the screen before you retry.`,
      'app',
      {code},
    )
  }
  if (/No clients available/.test(text)) {
    return new TapirError(
      `${method}: no browser page is connected to the app's web debug service. Open or reload the app's page, then try again.`,
      'app',
      {code},
    )
  }
  const answered = text.startsWith(CLIENT_FAILED) ? text.slice(CLIENT_FAILED.length) : text
  if (answered === NOT_SUPPORTED) {
    return new TapirError(
      `${method}: the app's page answers no extension call ("${NOT_SUPPORTED}"): in DWDS's WebSocket mode (flutter run -d web-server) only the DDC library-bundle format runs them. Use Flutter 3.35 or later, or run with --web-experimental-hot-reload.`,
      'app',
      {code},
    )
  }
  const parsed = parseDetails(answered)
  if (parsed.envelope) return new TapirError(parsed.message, 'app', {code, envelope: parsed.envelope})
  return new TapirError(`${method} failed in the app: ${parsed.message}`, 'app', {code})
}

/** Maps an error an `ext.tapir.*` call came back with to the line a user reads (exit 3). */
export function extensionFailure(method: string, error: RpcError): TapirError {
  if (error.rpcMessage.startsWith(DWDS_WRAPPER)) return dwdsFailure(method, error.rpcMessage.slice(DWDS_WRAPPER.length), error.code)
  if (error.code === METHOD_NOT_FOUND) {
    return new TapirError(
      `The app does not answer ${method}: tapir is not installed in it (add TapirPlugin.install() to main()), or the app is still booting.`,
      'app',
      {code: error.code},
    )
  }
  const details = error.details
  // DWDS's own RPCError carries no data: the message is all the app answered.
  if (details === undefined)
    return new TapirError(`${method} failed: the app answered "${error.rpcMessage}" (${error.code}).`, 'app', {code: error.code})
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
