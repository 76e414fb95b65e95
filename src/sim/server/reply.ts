import type {WireError} from './errors.js'
import type {RpcRequest} from './frames.js'
import type {Reply} from './replies.js'
import type {SimMode} from './vm.js'

/** The reply frame text for a reply, or `undefined` when nothing is sent. */
export function encodeReply(mode: SimMode, request: Pick<RpcRequest, 'id' | 'original'>, reply: Reply): string | undefined {
  if (request.id === null || reply.kind === 'never') return undefined
  if (reply.kind === 'result') return JSON.stringify({jsonrpc: '2.0', result: reply.result, id: request.id})
  if (reply.kind === 'error') return encodeError(mode, request, reply.error)
  const response = reply.response
  if (mode === 'dds') {
    return 'error' in response
      ? encodeError(mode, request, response.error)
      : JSON.stringify({jsonrpc: '2.0', result: response.result, id: request.id})
  }
  return extensionReplyText(request.id, response)
}

function encodeError(mode: SimMode, request: Pick<RpcRequest, 'id' | 'original'>, error: WireError): string {
  return JSON.stringify({jsonrpc: '2.0', error: mode === 'dds' ? withFullRequest(error, request.original) : error, id: request.id})
}

/** DDS answers through json_rpc_2, which puts the whole original request in `data.request`
 *  unless the error data already has one. */
function withFullRequest(error: WireError, original: Record<string, unknown>): WireError {
  if (error.data && 'request' in error.data) return error
  return {...error, data: {...error.data, request: original}}
}

/** The isolate concatenates an extension reply by hand: the payload is inlined verbatim and a
 *  string id is quoted without JSON escaping. */
function extensionReplyText(id: string | number, response: {result: Record<string, unknown>} | {error: WireError}): string {
  const [key, payload] = 'error' in response ? ['error', response.error] : ['result', response.result]
  const idText = typeof id === 'string' ? `"${id}"` : String(id)
  return `{"jsonrpc":"2.0","${key}":${JSON.stringify(payload)},"id":${idText}}`
}
