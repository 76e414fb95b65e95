import type {CallContext} from './context.js'
import {ErrorCode, serviceIsolateError} from './errors.js'
import {serviceEvent} from './events.js'
import {failure, result, success, type Reply} from './replies.js'

export function registerService({vm, peer, request}: CallContext): Reply {
  for (const param of ['service', 'alias']) {
    const value = request.params[param]
    if (value === undefined)
      return failure(serviceIsolateError(ErrorCode.invalidParams, `registerService expects the '${param}' parameter`))
    if (typeof value !== 'string' || value === '') {
      return failure(serviceIsolateError(ErrorCode.invalidParams, `registerService: invalid '${param}' parameter: ${String(value)}`))
    }
  }
  const service = request.params.service as string
  const alias = request.params.alias as string
  if (peer.services.has(service)) return failure(serviceIsolateError(ErrorCode.serviceAlreadyRegistered))
  peer.services.set(service, alias)
  vm.broadcast('Service', serviceEvent('ServiceRegistered', {service, method: `${peer.name}.${service}`, alias}), peer)
  return success
}

/** `s<n>.<service>`: a method another client registered. */
export function namespacedService(method: string): {owner: string; service: string} | undefined {
  const dot = method.indexOf('.')
  if (dot <= 0 || !method.startsWith('s')) return undefined
  return {owner: method.slice(0, dot), service: method.slice(dot + 1)}
}

/** Relays the call to the owning client and its answer back to the caller. */
export async function callService({vm, request}: CallContext, target: {owner: string; service: string}): Promise<Reply> {
  const owner = vm.peerNamed(target.owner)
  if (!owner?.services.has(target.service)) {
    return failure(serviceIsolateError(ErrorCode.methodNotFound, `Unknown service: ${request.method}`))
  }
  const reply = await owner.forward(target.service, request.params)
  return 'error' in reply ? failure(reply.error) : result(reply.result)
}
