import {timelineMicros} from '../timeline-clock.js'
import type {Handler} from './context.js'
import {missingParam} from './errors.js'
import {result} from './replies.js'
import type {SimVm} from './vm.js'

const flutterViewId = '_flutterView/0x7b4c2a1e90'

/** Methods the VM answers at its root, without an isolate. */
export const vmMethods: Readonly<Record<string, Handler>> = {
  getVersion: () => result({type: 'Version', major: 4, minor: 20, _privateMajor: 0, _privateMinor: 0}),
  getVM: ({vm}) => result(vmObject(vm)),
  /** The timeline clock (service.md `getVMTimelineMicros`: a `Timestamp`), the frame timings' clock. */
  getVMTimelineMicros: () => result({type: 'Timestamp', timestamp: timelineMicros()}),
  getIsolateGroup: ({vm, request}) => {
    const groupId = request.params.isolateGroupId
    if (groupId === undefined) throw missingParam(request, 'isolateGroupId')
    if (groupId !== vm.isolate.groupId) return result({type: 'Sentinel', kind: 'Expired', valueAsString: '<expired>'})
    return result({...vm.isolate.groupRef(), type: 'IsolateGroup', isolates: [vm.isolate.ref()]})
  },
  '_flutter.listViews': ({vm}) => {
    const isolate = vm.isolate
    const isolateRef = {
      type: '@Isolate',
      fixedId: true,
      id: isolate.id,
      name: `main.dart$main-${isolate.number}`,
      number: Number(isolate.number),
    }
    return result({type: 'FlutterViewList', views: [{type: 'FlutterView', id: flutterViewId, isolate: isolateRef}]})
  },
}

function vmObject(vm: SimVm): Record<string, unknown> {
  return {
    type: 'VM',
    name: 'vm',
    architectureBits: 64,
    hostCPU: 'tapir-sim arm64',
    operatingSystem: 'android',
    targetCPU: 'arm64',
    version: '3.9.0 (stable) (tapir-sim) on "android_arm64"',
    _profilerMode: 'Dart',
    pid: process.pid,
    startTime: vm.startTime,
    isolates: [vm.isolate.ref()],
    systemIsolates: [],
    isolateGroups: [vm.isolate.groupRef()],
    systemIsolateGroups: [],
  }
}
