import {ExtensionError} from '../app-contract.js'
import {callDusk} from '../dusk/handlers.js'
import type {CallContext} from './context.js'
import {dartToString, jsonTypeOf} from './dart-string.js'
import {ErrorCode, errorMessage, runtimeError, serviceIsolateError, type WireError} from './errors.js'
import {FlutterFramework} from './flutter-framework.js'
import type {SimIsolate} from './isolate.js'
import {failure, type Reply} from './replies.js'
import type {SimVm} from './vm.js'

const tapirPrefix = 'ext.tapir.'
const duskPrefix = 'ext.dusk.'

/** The VM stringifies non-string params Dart-style before an extension sees them; tapir's
 *  contract is to send strings only, so the sim notes each one and, when strict, refuses the call. */
export function refuseNonStringParams({vm, request}: CallContext): Reply | undefined {
  const offending = Object.entries(request.params).filter(([, value]) => typeof value !== 'string')
  for (const [key, value] of offending) {
    vm.violation(`${request.method}: param "${key}" sent as a ${jsonTypeOf(value)}; extensions get strings only`)
  }
  const first = offending[0]
  if (!vm.strictParams || first === undefined) return undefined
  const [key, value] = first
  return failure(
    serviceIsolateError(
      ErrorCode.invalidParams,
      `tapir-sim: param "${key}" was sent as a ${jsonTypeOf(value)}; the VM Service hands extensions strings only`,
    ),
  )
}

/** Runs an extension in the isolate: held while the isolate is paused, -32601 when the isolate has
 *  not registered it, and the handler's answer or failure shaped as dart:developer does. */
export async function callExtension({vm, request}: CallContext, isolate: SimIsolate): Promise<Reply> {
  if (!(await vm.whenRunnable(isolate))) return {kind: 'never'}
  if (!vm.isRegistered(isolate, request.method)) return failure(runtimeError(ErrorCode.methodNotFound, request))
  const params = Object.fromEntries(Object.entries(request.params).map(([key, value]) => [key, dartToString(value)]))
  try {
    return {kind: 'extension', response: {result: await runHandler(vm, request.method, params)}}
  } catch (error) {
    return {kind: 'extension', response: {error: handlerFailure(error)}}
  }
}

async function runHandler(vm: SimVm, method: string, params: Record<string, string>): Promise<Record<string, unknown>> {
  if (method.startsWith(tapirPrefix)) return vm.app.call(method.slice(tapirPrefix.length), params)
  if (method.startsWith(duskPrefix)) return callDusk(vm.app, method.slice(duskPrefix.length), params, (text) => vm.violation(text))
  if (FlutterFramework.answeredByApp(method)) {
    if (vm.app.flutterExtension === undefined) throw new Error(`the app answers no ${method}`)
    return vm.app.flutterExtension(method, params)
  }
  return vm.framework.call(method, params)
}

function handlerFailure(error: unknown): WireError {
  if (error instanceof ExtensionError && isExtensionErrorCode(error.code)) {
    return {code: error.code, message: errorMessage(error.code), data: {details: error.details}}
  }
  const text = error instanceof ExtensionError ? `Invalid argument (errorCode): Out of range: ${error.code}` : String(error)
  return {code: ErrorCode.serverError, message: errorMessage(ErrorCode.serverError), data: {details: `${text}\n${stackOf(error)}`}}
}

/** dart:developer accepts -32602 and the -32016..-32000 server error range only. */
function isExtensionErrorCode(code: number): boolean {
  return code === ErrorCode.invalidParams || (code >= -32016 && code <= -32000)
}

function stackOf(error: unknown): string {
  const stack = error instanceof Error ? (error.stack ?? '') : ''
  return stack
    .split('\n')
    .filter((line) => line.trimStart().startsWith('at '))
    .join('\n')
}
