import type {RawData} from 'ws'
import {ErrorCode, serviceIsolateError, type WireError} from './errors.js'

export type RequestId = string | number

export interface RpcRequest {
  /** `null` for a notification, which gets no reply. */
  id: RequestId | null
  method: string
  params: Record<string, unknown>
  /** The request object as decoded; DDS echoes it whole in error data. */
  original: Record<string, unknown>
}

export type Frame =
  | {kind: 'request'; request: RpcRequest}
  /** A client answering a request the server forwarded to it (a registered service). */
  | {kind: 'reply'; id: unknown; message: Record<string, unknown>}
  /** A request the server answers with an error without dispatching it. */
  | {kind: 'refused'; request: Pick<RpcRequest, 'id' | 'original'>; error: WireError}
  | {kind: 'close'; code: number; reason: string}

/** Reads one WebSocket message the way the VM's WebSocket client does, noting every protocol
 *  misuse in `violation`. */
export function parseFrame(data: RawData, isBinary: boolean, violation: (text: string) => void): Frame {
  if (isBinary) {
    violation('binary frame: the VM Service takes text frames only')
    return {kind: 'close', code: 4001, reason: 'Message must be a string.'}
  }
  let message: unknown
  try {
    message = JSON.parse(textOf(data))
  } catch (error) {
    violation(`frame is not JSON: ${(error as Error).message}`)
    return {kind: 'close', code: 4000, reason: closeReason(`Message parse error: ${(error as Error).message}`)}
  }
  if (typeof message !== 'object' || message === null || Array.isArray(message)) {
    violation(Array.isArray(message) ? 'batch request: the VM Service has no JSON-RPC batches' : 'message is not a JSON object')
    return {kind: 'close', code: 4002, reason: 'Message must be a JSON map.'}
  }
  const object = message as Record<string, unknown>
  const id = object.id ?? null
  if (id !== null && typeof id !== 'string' && typeof id !== 'number') {
    violation(`id of JSON type ${typeof id}`)
    return {kind: 'close', code: 4003, reason: "'id' must be a number, string, or null."}
  }
  if (!('method' in object) && ('result' in object || 'error' in object)) return {kind: 'reply', id, message: object}
  if (typeof object.method !== 'string') {
    violation('request without a string method')
    return {
      kind: 'refused',
      request: {id, original: object},
      error: serviceIsolateError(ErrorCode.invalidRequest, "'method' must be a string"),
    }
  }
  const method = object.method
  noteIdMisuse(id, method, violation)
  const params = object.params ?? {}
  if (typeof params !== 'object' || params === null || Array.isArray(params)) {
    violation(`${method}: params must be a JSON object (named params only)`)
    return {
      kind: 'refused',
      request: {id, original: object},
      error: serviceIsolateError(
        ErrorCode.invalidParams,
        'tapir-sim: params must be a JSON object; the VM Service takes named params only',
      ),
    }
  }
  return {kind: 'request', request: {id, method, params: params as Record<string, unknown>, original: object}}
}

function noteIdMisuse(id: RequestId | null, method: string, violation: (text: string) => void): void {
  if (id === null) violation(`${method}: notification (no id); the VM never answers it`)
  else if (typeof id === 'number') violation(`${method}: numeric id ${id}; send digit strings`)
  else if (JSON.stringify(id) !== `"${id}"`)
    violation(`${method}: id ${JSON.stringify(id)} needs JSON escaping; extension replies echo it unescaped`)
}

function textOf(data: RawData): string {
  if (Buffer.isBuffer(data)) return data.toString('utf8')
  if (Array.isArray(data)) return Buffer.concat(data).toString('utf8')
  return Buffer.from(data).toString('utf8')
}

/** A WebSocket close reason may not exceed 123 bytes. */
function closeReason(text: string): string {
  const bytes = Buffer.from(text, 'utf8')
  return bytes.length <= 123
    ? text
    : bytes
        .subarray(0, 120)
        .toString('utf8')
        .replace(/\uFFFD$/, '') + '...'
}
