import {lookup, type CallContext, type Handler} from './context.js'
import {dartToString} from './dart-string.js'
import {routeDwds} from './dwds.js'
import {ErrorCode, missingParam, RpcError, runtimeError, serviceIsolateError} from './errors.js'
import {callExtension, refuseNonStringParams} from './extensions.js'
import {isolateMethods} from './isolate-methods.js'
import {getDartDevelopmentServiceVersion, getSupportedProtocols} from './protocols.js'
import {failure, result, type Reply} from './replies.js'
import {callService, namespacedService, registerService} from './services.js'
import {streamCancel, streamListen} from './streams.js'
import {vmMethods} from './vm-methods.js'

/** Methods the VM service isolate answers itself, before any isolate routing. */
const serviceIsolateMethods: Readonly<Record<string, Handler>> = {streamListen, streamCancel, registerService, getSupportedProtocols}

/** What DDS answers itself in front of a VM or of DWDS: its own streams and services, its version. */
const ddsMethods: Readonly<Record<string, Handler>> = {...serviceIsolateMethods, getDartDevelopmentServiceVersion}

const collected = {type: 'Sentinel', kind: 'Collected', valueAsString: '<collected>'}

/** Routes a request in the VM's order: DDS's own methods and the services registered with it,
 *  then DWDS, or the service isolate's methods, registered services, by `isolateId` to the
 *  isolate, else the VM root. */
export async function dispatch(context: CallContext): Promise<Reply> {
  try {
    return await route(context)
  } catch (error) {
    if (error instanceof RpcError) return failure(error.wire)
    return failure(serviceIsolateError(ErrorCode.internalError, `Unexpected exception: ${String(error)}`))
  }
}

async function route(context: CallContext): Promise<Reply> {
  const {vm, request} = context
  const method = request.method
  if (vm.dds) {
    const dds = lookup(ddsMethods, method)
    if (dds) return dds(context)
    const service = namespacedService(method)
    if (service) return callService(context, service)
  }
  if (vm.web) return routeDwds(context)
  const own = lookup(serviceIsolateMethods, method)
  if (own) return own(context)
  const service = namespacedService(method)
  if (service) return callService(context, service)
  if (method.startsWith('ext.')) {
    const refusal = refuseNonStringParams(context)
    if (refusal) return refusal
  }
  if (request.params.isolateId !== undefined) return routeToIsolate(context, dartToString(request.params.isolateId))
  if (lookup(isolateMethods, method)) throw missingParam(request, 'isolateId')
  const handler = lookup(vmMethods, method)
  return handler ? handler(context) : failure(runtimeError(ErrorCode.methodNotFound, request))
}

async function routeToIsolate(context: CallContext, isolateId: string): Promise<Reply> {
  const {vm, request} = context
  if (!/^isolates\/(root|-?\d+)$/.test(isolateId)) {
    return failure(serviceIsolateError(ErrorCode.invalidParams, `${request.method}: invalid 'isolateId' parameter: ${isolateId}`))
  }
  const isolate = vm.lookupIsolate(isolateId)
  if (!isolate) return result(collected)
  if (request.method.startsWith('ext.')) return callExtension(context, isolate)
  const isolateHandler = lookup(isolateMethods, request.method)
  if (isolateHandler) return isolateHandler(context, isolate)
  const handler = lookup(vmMethods, request.method)
  return handler ? handler(context) : failure(runtimeError(ErrorCode.methodNotFound, request))
}
