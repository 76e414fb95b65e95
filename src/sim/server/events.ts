import type {SimIsolate} from './isolate.js'

export type SimEvent = Record<string, unknown>

/** An event about an isolate; on the web (DWDS) it names no isolate group, since there are none. */
export function isolateEvent(kind: string, isolate: SimIsolate, extra: SimEvent = {}): SimEvent {
  const group = isolate.webCounter === undefined ? {isolateGroup: isolate.groupRef()} : {}
  return {type: 'Event', kind, isolate: isolate.ref(), ...group, timestamp: Date.now(), ...extra}
}

export function serviceEvent(kind: string, extra: SimEvent): SimEvent {
  return {type: 'Event', kind, timestamp: Date.now(), ...extra}
}

/** The pause state an isolate reports in `pauseEvent`, `getIsolatePauseEvent` and the Debug stream. */
export function pauseEvent(isolate: SimIsolate, paused: boolean): SimEvent {
  return {type: 'Event', kind: paused ? 'PauseInterrupted' : 'Resume', timestamp: Date.now(), isolate: isolate.ref()}
}

export function streamNotify(streamId: string, event: SimEvent): string {
  return JSON.stringify({jsonrpc: '2.0', method: 'streamNotify', params: {streamId, event}})
}
