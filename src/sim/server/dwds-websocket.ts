import type {CallContext} from './context.js'
import {ErrorCode, type WireError} from './errors.js'
import {callExtension} from './extensions.js'
import {failure, result, type Reply} from './replies.js'

/**
 * DWDS in WebSocket mode (webdev `dwds/lib/src/services/web_socket/web_socket_proxy_service.dart`,
 * `WebSocketProxyService`): what `flutter run` runs for any web device that is not a Chromium one
 * (`resident_web_runner.dart`, `useDwdsWebSocketConnection`), `-d web-server` among them. DWDS has
 * no Chrome here: it sends each extension call to the page's injected client over a WebSocket.
 */

/** `_callServiceExtension`: `const timeout = Duration(seconds: 10)`. */
export const WEBSOCKET_CALL_CAP_MS = 10_000

/** `wrapInErrorHandlerAsync` (dwds/lib/src/utilities/shared.dart): any failure that is not an
 *  RPCError becomes -32603 with this text. */
const unexpected = (text: string): WireError => ({
  code: ErrorCode.internalError,
  message: `Unexpected DWDS error for callServiceExtension: ${text}`,
})

/** Dart's `Duration.toString()`, as a TimeoutException prints it. */
function dartDuration(ms: number): string {
  const seconds = Math.floor(ms / 1000)
  const micros = String((ms % 1000) * 1000).padStart(6, '0')
  return `${Math.floor(seconds / 3600)}:${String(Math.floor(seconds / 60) % 60).padStart(2, '0')}:${String(seconds % 60).padStart(2, '0')}.${micros}`
}

/**
 * An `ext.*` call: the isolate id is ignored (no `checkIsolate`, so a stale one is no Sentinel),
 * the page gets the params as strings, and DWDS waits at most `capMs` for its answer, then gives up
 * with a TimeoutException while the app goes on with the call. What the page's client reports:
 * - the extension's answer, returned as `Response()..json = result`, so it gains `type: Response`;
 * - an extension's error, which the DDC runtime hands back as the JSON `{code, message, data}`
 *   (the shape `ChromeProxyService._callServiceExtension` unpacks), decoded by the client as a
 *   plain answer: DWDS returns it as a result, not as an error;
 * - a failure of the call itself (here: a method the page has not registered), sent back as
 *   `success: false`, which `completeServiceExtension` turns into "failed in some clients".
 */
export async function callOverWebSocket(context: CallContext, capMs: number): Promise<Reply> {
  const {vm, request} = context
  const method = request.method
  const {isolateId: _ignored, ...rest} = request.params
  const params = Object.fromEntries(
    Object.entries(rest).map(([key, value]) => [key, typeof value === 'string' ? value : JSON.stringify(value)]),
  )
  const page = callExtension({...context, request: {...request, params}}, vm.isolate)
  let timer: NodeJS.Timeout | undefined
  const cap = new Promise<'cap'>((resolve) => (timer = setTimeout(() => resolve('cap'), capMs)))
  const outcome = await Promise.race([page, cap])
  clearTimeout(timer)
  if (outcome === 'cap' || outcome.kind === 'never') {
    if (outcome !== 'cap') await cap
    return failure(
      unexpected(`TimeoutException after ${dartDuration(capMs)}: Service extension ${method} timed out - received 0/1 responses`),
    )
  }
  if (outcome.kind === 'error') return failure(unexpected(`Service extension failed in some clients: ${outcome.error.message}`))
  if (outcome.kind !== 'extension') return outcome
  const answer = 'result' in outcome.response ? outcome.response.result : outcome.response.error
  return result({...answer, type: 'Response'})
}

/**
 * `WebSocketProxyService` has no `evaluate`: ProxyService's `noSuchMethod` throws a
 * NoSuchMethodError, which vm_service_interface's `VmServerConnection._delegateRequest` answers as
 * -32603 `<method>: <error>` with the stack in `data.details`.
 */
export function noEvaluate(): Reply {
  return failure({
    code: ErrorCode.internalError,
    message:
      "evaluate: NoSuchMethodError: Class 'WebSocketProxyService' has no instance method 'evaluate'.\nReceiver: Instance of 'WebSocketProxyService'",
    data: {details: '#0      ProxyService.noSuchMethod (package:dwds/src/services/proxy_service.dart)'},
  })
}
