import type {WireError} from './errors.js'
import type {RpcRequest} from './frames.js'
import type {Reply} from './replies.js'

/** Who puts a reply on the wire: the VM's isolate concatenates extension replies by hand, DDS
 *  re-serialises everything through json_rpc_2, DWDS serialises through vm_service. */
export interface Encoder {
  readonly dds: boolean
  readonly web: boolean
}

/** The reply frame text for a reply, or `undefined` when nothing is sent. */
export function encodeReply(encoder: Encoder, request: Pick<RpcRequest, 'id' | 'original'>, reply: Reply): string | undefined {
  if (request.id === null || reply.kind === 'never') return undefined
  if (reply.kind === 'result') return JSON.stringify({jsonrpc: '2.0', result: reply.result, id: request.id})
  if (reply.kind === 'error') return encodeError(encoder, request, reply.error)
  const response = reply.response
  if (encoder.dds || encoder.web) {
    return 'error' in response
      ? encodeError(encoder, request, response.error)
      : JSON.stringify({jsonrpc: '2.0', result: response.result, id: request.id})
  }
  return extensionReplyText(request.id, response)
}

function encodeError(encoder: Encoder, request: Pick<RpcRequest, 'id' | 'original'>, error: WireError): string {
  return JSON.stringify({jsonrpc: '2.0', error: encoder.dds ? withFullRequest(error, request.original) : error, id: request.id})
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
