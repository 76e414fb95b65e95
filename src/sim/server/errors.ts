import {dartToString} from './dart-string.js'

export const ErrorCode = {
  invalidRequest: -32600,
  methodNotFound: -32601,
  invalidParams: -32602,
  internalError: -32603,
  serverError: -32000,
  streamAlreadySubscribed: 103,
  streamNotSubscribed: 104,
  isolateMustBePaused: 106,
  serviceAlreadyRegistered: 111,
  serviceDisappeared: 112,
  expressionCompilationError: 113,
} as const

const messageForCode: Record<number, string> = {
  [ErrorCode.invalidRequest]: 'Invalid Request',
  [ErrorCode.methodNotFound]: 'Method not found',
  [ErrorCode.invalidParams]: 'Invalid params',
  [ErrorCode.internalError]: 'Internal error',
  [ErrorCode.streamAlreadySubscribed]: 'Stream already subscribed',
  [ErrorCode.streamNotSubscribed]: 'Stream not subscribed',
  [ErrorCode.isolateMustBePaused]: 'Isolate must be paused',
  [ErrorCode.serviceAlreadyRegistered]: 'Service already registered',
  [ErrorCode.serviceDisappeared]: 'Service has disappeared',
  [ErrorCode.expressionCompilationError]: 'Expression compilation error',
}

/** The `error` member of a JSON-RPC reply. */
export interface WireError {
  code: number
  message: string
  data?: Record<string, unknown>
}

/** Thrown by a method handler; the dispatcher turns it into the error reply. */
export class RpcError extends Error {
  constructor(readonly wire: WireError) {
    super(wire.message)
  }
}

export function errorMessage(code: number): string {
  return messageForCode[code] ?? 'Server error'
}

/** An error raised by the VM service isolate itself (stream, service and isolateId routing
 *  errors): `data` carries only `details`, and is absent without them. */
export function serviceIsolateError(code: number, details?: string): WireError {
  const error: WireError = {code, message: errorMessage(code)}
  if (details !== undefined) error.data = {details}
  return error
}

/** An error printed by the VM runtime (unknown method, unregistered extension, bad parameter):
 *  `data.request` echoes the method and its params as the isolate received them (stringified). */
export function runtimeError(code: number, request: {method: string; params: Record<string, unknown>}, details?: string): WireError {
  const params = Object.fromEntries(Object.entries(request.params).map(([k, v]) => [k, dartToString(v)]))
  const data: Record<string, unknown> = {request: {method: request.method, params}}
  if (details !== undefined) data.details = details
  return {code, message: errorMessage(code), data}
}

export function missingParam(request: {method: string; params: Record<string, unknown>}, param: string): RpcError {
  return new RpcError(runtimeError(ErrorCode.invalidParams, request, `${request.method} expects the '${param}' parameter`))
}

export function invalidParam(request: {method: string; params: Record<string, unknown>}, param: string): RpcError {
  const value = dartToString(request.params[param])
  return new RpcError(runtimeError(ErrorCode.invalidParams, request, `${request.method}: invalid '${param}' parameter: ${value}`))
}
