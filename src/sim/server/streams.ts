import type {CallContext} from './context.js'
import {ErrorCode, serviceIsolateError} from './errors.js'
import {serviceEvent, streamNotify} from './events.js'
import {failure, success, type Reply} from './replies.js'

const vmStreams = new Set([
  'VM',
  'Isolate',
  'Debug',
  'Profiler',
  'GC',
  'Extension',
  'Timeline',
  'Logging',
  'Service',
  'HeapSnapshot',
  'Timer',
  'Stdout',
  'Stderr',
])

/** The raw VM refuses streams it does not know; DDS takes any other id as a custom stream. */
export function streamListen({vm, peer, request}: CallContext): Reply {
  const streamId = request.params.streamId
  if (typeof streamId !== 'string')
    return failure(serviceIsolateError(ErrorCode.invalidParams, "streamListen expects the 'streamId' parameter"))
  if (peer.streams.has(streamId)) return failure(serviceIsolateError(ErrorCode.streamAlreadySubscribed))
  if (!vm.dds && !vmStreams.has(streamId)) {
    return failure(serviceIsolateError(ErrorCode.invalidParams, `streamListen: invalid 'streamId' parameter: ${streamId}`))
  }
  if (streamId === 'Service') announceServicesTo(vm, peer)
  // DDS sends what it kept of the stream before its reply.
  for (const event of vm.historyOf(streamId)) peer.send(streamNotify(streamId, event))
  peer.streams.add(streamId)
  return success
}

export function streamCancel({peer, request}: CallContext): Reply {
  const streamId = request.params.streamId
  if (typeof streamId !== 'string' || !peer.streams.has(streamId)) return failure(serviceIsolateError(ErrorCode.streamNotSubscribed))
  peer.streams.delete(streamId)
  return success
}

/** A new `Service` listener hears of every service other clients registered, before its
 *  listen reply. */
function announceServicesTo(vm: CallContext['vm'], peer: CallContext['peer']): void {
  for (const other of vm.otherPeers(peer)) {
    for (const [service, alias] of other.services) {
      peer.send(streamNotify('Service', serviceEvent('ServiceRegistered', {service, method: `${other.name}.${service}`, alias})))
    }
  }
}
