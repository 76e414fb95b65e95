import type {CallContext} from './context.js'
import {dartToString} from './dart-string.js'
import {callOverWebSocket, noEvaluate} from './dwds-websocket.js'
import {ErrorCode, errorMessage, type WireError} from './errors.js'
import {serviceEvent, streamNotify} from './events.js'
import {callExtension, refuseNonStringParams} from './extensions.js'
import {FLUTTER_LIBRARIES} from './isolate.js'
import type {SimIsolate} from './isolate.js'
import {failure, result, success, type Reply} from './replies.js'
import {registerService} from './services.js'
import type {Peer, SimVm} from './vm.js'
import {webInstanceRef} from './web-instances.js'

/** What DWDS (package:dwds, `ChromeProxyService`) answers where it differs from the VM
 *  (research/vm-service-protocol.md §6): a web app's debug service runs no Dart VM. */

const WEB_STREAMS = new Set([
  'Debug',
  'Isolate',
  'Extension',
  'Logging',
  'Stdout',
  'Stderr',
  'Service',
  'VM',
  'GC',
  'Timeline',
  'Profiler',
  'HeapSnapshot',
])

const UNSUPPORTED = new Set([
  'kill',
  'getIsolateGroup',
  'getAllocationProfile',
  'getClassList',
  'getInstances',
  'getVMTimeline',
  'setVMTimelineFlags',
  'getVMTimelineFlags',
  'clearVMTimeline',
  'getVMTimelineMicros',
  'getInboundReferences',
  'getRetainingPath',
  'requestHeapSnapshot',
  'getProcessMemoryUsage',
  'setLibraryDebuggable',
  'getIsolateGroupMemoryUsage',
  '_flutter.listViews',
])

/** The protocol's own methods DWDS answers; a service registered under one of these names is
 *  never reached (vm_service's VmServerConnection routes only other names to the registry). */
const DWDS_METHODS = new Set([
  ...UNSUPPORTED,
  'getVersion',
  'getVM',
  'streamListen',
  'streamCancel',
  'getSupportedProtocols',
  'registerService',
  'getIsolate',
  'evaluate',
  'reloadSources',
  'resume',
])

const wire = (code: number, message: string): WireError => ({code, message})
const notOnWeb = (method: string): Reply => failure(wire(ErrorCode.methodNotFound, `${method}: Not supported on web devices`))
const unrecognised = (id: string): Reply => result({type: 'Sentinel', kind: 'Collected', valueAsString: `Unrecognized isolateId: ${id}`})

export async function routeDwds(context: CallContext): Promise<Reply> {
  const {vm, peer, request} = context
  const {method, params} = request
  if (UNSUPPORTED.has(method)) return notOnWeb(method)
  if (method.startsWith('ext.')) return extension(context)
  if (method === 'evaluate' && vm.websocket) return noEvaluate()
  switch (method) {
    case 'getVersion':
      return result({type: 'Version', major: 4, minor: 20})
    case 'getVM':
      return result(vmObject(vm))
    case 'streamListen': {
      const streamId = String(params.streamId)
      if (!WEB_STREAMS.has(streamId))
        return failure(wire(ErrorCode.invalidParams, `The stream \`${streamId}\` is not supported on web devices`))
      peer.streams.add(streamId) // never 103: a second listen is a success too
      return streamId === 'Service' ? {kind: 'result', result: {type: 'Success'}, afterSend: () => announceRegistry(vm, peer)} : success
    }
    case 'registerService':
      return registerWithRegistry(context)
    case 'streamCancel':
      return notOnWeb(method)
    case 'getSupportedProtocols':
      return result({type: 'ProtocolList', protocols: [{protocolName: 'VM Service', major: 4, minor: 20}]})
  }
  // Behind DDS the services live with DDS (`s<n>.` names); DWDS's own registry is empty.
  if (!vm.dds && !DWDS_METHODS.has(method)) {
    const owner = vm.serviceOwner(method)
    if (owner) {
      const reply = await owner.forward(method, params)
      return 'error' in reply ? failure(reply.error) : result(reply.result)
    }
  }
  const isolateId = params.isolateId === undefined ? undefined : dartToString(params.isolateId)
  if (isolateId === undefined) return failure(wire(ErrorCode.invalidParams, `${method}: missing required parameter isolateId`))
  const isolate = vm.lookupIsolate(isolateId)
  if (!isolate) return unrecognised(isolateId)
  switch (method) {
    case 'getIsolate':
      return result({
        ...isolate.ref(),
        type: 'Isolate',
        startTime: isolate.startTime,
        runnable: true,
        livePorts: 0,
        pauseOnExit: false,
        pauseEvent: {type: 'Event', kind: 'Resume', timestamp: Date.now(), isolate: isolate.ref()},
        rootLib: webRootLib,
        libraries: [webRootLib, ...WEB_FLUTTER_LIBRARIES],
        breakpoints: [],
        exceptionPauseMode: 'Unhandled',
        extensionRPCs: vm.extensionRPCs(isolate),
      })
    case 'evaluate':
      return evaluateOnPage(context, isolate)
    case 'reloadSources':
      return result({type: 'ReloadReport', success: true})
    case 'resume':
      return success
    default:
      return failure(wire(ErrorCode.methodNotFound, errorMessage(ErrorCode.methodNotFound)))
  }
}

/**
 * `flutter run` gives DWDS an expression compiler: the expression is compiled to JavaScript in the
 * root library (here by the app's own compiler stand-in, which type checks the sim's expression
 * language) and run in the page. A compile error or a throw is not an RPC error as on the VM but
 * an `@Error` result of kind `error` (lowercase, not a spec ErrorKind); a target other than a
 * library DWDS knows is refused the same way.
 */
function evaluateOnPage({vm, request}: CallContext, isolate: SimIsolate): Reply {
  const {targetId, expression} = request.params
  if (targetId === undefined) return failure(wire(ErrorCode.invalidParams, 'evaluate: missing required parameter targetId'))
  if (expression === undefined) return failure(wire(ErrorCode.invalidParams, 'evaluate: missing required parameter expression'))
  // ChromeProxyService._evaluate: with no expression evaluator (no compiler, or flutter run
  // --no-web-enable-expression-evaluation) the answer is -32600.
  if (!vm.expressionCompiler)
    return failure(wire(ErrorCode.invalidRequest, 'Expression evaluation is not supported for this configuration.'))
  const errorRef = (message: string): Reply => result({type: '@Error', kind: 'error', message, id: vm.nextDwdsId()})
  const target = dartToString(targetId)
  const flutterLibrary = WEB_FLUTTER_LIBRARIES.find((library) => library.id === target)
  if (target !== webRootLib.id && flutterLibrary === undefined) return errorRef(`Evaluate is called on an unsupported target:${target}`)
  const evaluated = vm.app.evaluate(dartToString(expression), flutterLibrary?.uri)
  switch (evaluated.kind) {
    case 'compileError':
      // DWDS strips the synthetic library's name from the front end's report.
      return errorRef(`CompilationError: ${evaluated.details.replace(/org-dartlang-debug:synthetic_debug_expression:.*:.*Error: /g, '')}`)
    case 'thrown':
      return errorRef(`Error: ${evaluated.exception}`)
    case 'value':
      return result(webInstanceRef(evaluated.value, () => isolate.nextObjectId()))
  }
}

/** The isolate id is optional (the current isolate) and dropped before the call; a value that is
 *  not a string reaches the app JSON-encoded; an extension the page has not registered is -32601. */
async function extension(context: CallContext): Promise<Reply> {
  const {vm, request} = context
  const refusal = refuseNonStringParams(context)
  if (refusal) return refusal
  if (vm.websocket) return callOverWebSocket(context, vm.callCapMs)
  const {isolateId, ...rest} = request.params
  const isolate = isolateId === undefined ? vm.isolate : vm.lookupIsolate(String(isolateId))
  if (!isolate) return unrecognised(String(isolateId))
  if (!vm.isRegistered(isolate, request.method)) return failure(wire(ErrorCode.methodNotFound, `Unknown service method: ${request.method}`))
  const params = Object.fromEntries(
    Object.entries(rest).map(([key, value]) => [key, typeof value === 'string' ? value : JSON.stringify(value)]),
  )
  return callExtension({...context, request: {...request, params}}, isolate)
}

/**
 * With no DDS in front, DWDS's connections share one registry (vm_service's
 * ServiceExtensionRegistry): a service is registered under its bare name for every client, the
 * alias is neither needed nor announced, and a second registration of a name by anyone is 111.
 * A missing or empty service name is refused as the VM words it.
 */
function registerWithRegistry(context: CallContext): Reply {
  const {vm, peer, request} = context
  const service = request.params.service
  if (typeof service !== 'string' || service === '') return registerService(context)
  if (vm.serviceOwner(service)) return failure(wire(ErrorCode.serviceAlreadyRegistered, errorMessage(ErrorCode.serviceAlreadyRegistered)))
  peer.services.set(service, typeof request.params.alias === 'string' ? request.params.alias : '')
  vm.broadcast('Service', registryEvent('ServiceRegistered', service))
  return success
}

/** A new `Service` listener hears of every registered service just after its listen reply (the
 *  registry's stream starts with them), its own included. */
function announceRegistry(vm: SimVm, peer: Peer): void {
  for (const {service} of vm.registeredServices()) peer.send(streamNotify('Service', registryEvent('ServiceRegistered', service)))
}

const registryEvent = (kind: string, service: string) => serviceEvent(kind, {service, method: service})

/** DWDS names a library by its URI. */
const webRootLib = {
  type: '@Library',
  id: 'package:monitors/main.dart',
  name: 'package:monitors/main.dart',
  uri: 'package:monitors/main.dart',
}

/** Flutter's libraries the page loaded that an expression may be evaluated in (src/sim/server/isolate.ts). */
const WEB_FLUTTER_LIBRARIES = FLUTTER_LIBRARIES.map((uri) => ({type: '@Library', id: uri, name: uri, uri}))

function vmObject(vm: SimVm): Record<string, unknown> {
  return {
    type: 'VM',
    // WebSocketProxyService.create names its VM 'WebSocketDebugProxy'; ChromeProxyService 'ChromeDebugProxy'.
    name: vm.websocket ? 'WebSocketDebugProxy' : 'ChromeDebugProxy',
    architectureBits: -1,
    hostCPU: 'DWDS',
    operatingSystem: 'linux',
    targetCPU: 'Web',
    version: '3.9.0 (stable) (tapir-sim web)',
    pid: -1,
    startTime: vm.startTime,
    isolates: [vm.isolate.ref()],
    systemIsolates: [],
    isolateGroups: [],
    systemIsolateGroups: [],
  }
}
