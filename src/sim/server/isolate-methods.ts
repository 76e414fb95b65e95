import type {IsolateHandler} from './context.js'
import {ErrorCode, missingParam, invalidParam, runtimeError, serviceIsolateError} from './errors.js'
import {isolateEvent, pauseEvent} from './events.js'
import {vmInstanceRef} from './instances.js'
import type {SimIsolate} from './isolate.js'
import {failure, result, success} from './replies.js'
import type {SimVm} from './vm.js'

/** Built-in methods the VM runs against the isolate named by `isolateId`. */
export const isolateMethods: Readonly<Record<string, IsolateHandler>> = {
  getIsolate: ({vm}, isolate) => result(isolateObject(vm, isolate)),
  getIsolatePauseEvent: ({vm}, isolate) => result(pauseEvent(isolate, vm.faults.paused)),
  resume: ({vm, request}) => {
    if (!vm.faults.paused) return failure(runtimeError(ErrorCode.isolateMustBePaused, request))
    vm.faults.paused = false
    return success
  },
  /** Nothing was recompiled (flutter_tools is not there), so the reload succeeds and changes nothing. */
  reloadSources: ({vm}, isolate) => {
    vm.broadcast('Isolate', isolateEvent('IsolateReload', isolate, {status: 'success'}))
    return result({type: 'ReloadReport', success: true, details: noOpReload})
  },
  evaluate: ({vm, request}, isolate) => {
    const {targetId, expression} = request.params
    if (targetId === undefined) throw missingParam(request, 'targetId')
    if (expression === undefined) throw missingParam(request, 'expression')
    const library = isolate.libraryUri(String(targetId))
    if (library === undefined) throw invalidParam(request, 'targetId')
    const evaluated = vm.app.evaluate(String(expression), library === 'package:monitors/main.dart' ? undefined : library)
    if (evaluated.kind === 'compileError') return failure(serviceIsolateError(ErrorCode.expressionCompilationError, evaluated.details))
    if (evaluated.kind === 'thrown') {
      return result({
        type: '@Error',
        kind: 'UnhandledException',
        id: isolate.nextObjectId(),
        message: `Unhandled exception:\n${evaluated.exception}`,
      })
    }
    return result(vmInstanceRef(evaluated.value, () => isolate.nextObjectId()))
  },
}

const noOpReload = {
  finalLibraryCount: 1,
  receivedLibraryCount: 0,
  receivedLibrariesBytes: 0,
  receivedClassesCount: 0,
  receivedProceduresCount: 0,
  savedLibraryCount: 1,
  loadedLibraryCount: 0,
}

function isolateObject(vm: SimVm, isolate: SimIsolate): Record<string, unknown> {
  const rootLib = isolate.rootLib()
  return {
    ...isolate.ref(),
    type: 'Isolate',
    isolateFlags: [],
    startTime: isolate.startTime,
    runnable: true,
    livePorts: 4,
    pauseOnExit: false,
    pauseEvent: pauseEvent(isolate, vm.faults.paused),
    rootLib,
    libraries: [rootLib, ...isolate.flutterLibraries],
    breakpoints: [],
    exceptionPauseMode: 'Unhandled',
    extensionRPCs: vm.extensionRPCs(isolate),
  }
}
