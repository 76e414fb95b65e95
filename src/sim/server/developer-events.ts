import type {DeveloperEvent} from '../app-contract.js'
import {isolateEvent, type SimEvent} from './events.js'
import {vmInstanceRef, vmNull} from './instances.js'
import type {SimIsolate} from './isolate.js'
import {webNull, webString} from './web-instances.js'

/** Where a debug service carries what the app logs, posts and prints, and how it shapes it. */
export interface StreamEvent {
  readonly streamId: 'Logging' | 'Extension' | 'Stdout'
  readonly event: SimEvent
}

/**
 * The events a developer call becomes (research/vm-service-protocol.md §4, §6):
 * - `developer.log` is a `Logging` event whose `logRecord` names its strings by `@Instance`s:
 *   the VM's ring objects, or on the web DWDS's string and null references (its `time` is the
 *   browser console's).
 * - `postEvent` is an `Extension` event; the VM leaves `__destinationStream` in its data, DDS
 *   strips it, and DWDS decodes the page's data without it.
 * - a print is a `WriteEvent` on `Stdout`: on the VM the text and its newline are two writes,
 *   on the web one console call is one event.
 */
export function streamEventsOf(event: DeveloperEvent, isolate: SimIsolate, shape: {web: boolean; dds: boolean}): StreamEvent[] {
  switch (event.kind) {
    case 'log': {
      const logRecord = shape.web ? webLogRecord(event) : vmLogRecord(event, isolate)
      const timing = shape.web ? {timestamp: event.time} : {}
      return [{streamId: 'Logging', event: isolateEvent('Logging', isolate, {logRecord, ...timing})}]
    }
    case 'post': {
      // On the web structured errors are off (widget_inspector.dart `isStructuredErrorsEnabled`:
      // default `!kIsWeb`): FlutterError.presentError stays dumpErrorToConsole, which prints.
      if (shape.web && event.extensionKind === 'Flutter.Error') {
        const text = String(event.data.renderedErrorText ?? '')
        return streamEventsOf({kind: 'print', text}, isolate, shape)
      }
      const extensionData = shape.web || shape.dds ? event.data : {...event.data, __destinationStream: 'Extension'}
      return [{streamId: 'Extension', event: isolateEvent('Extension', isolate, {extensionKind: event.extensionKind, extensionData})}]
    }
    case 'print': {
      const writes = shape.web ? [`${event.text}\n`] : [event.text, '\n']
      return writes.map((text) => ({
        streamId: 'Stdout',
        event: isolateEvent('WriteEvent', isolate, {bytes: Buffer.from(text, 'utf8').toString('base64')}),
      }))
    }
  }
}

type LogEvent = Extract<DeveloperEvent, {kind: 'log'}>

function vmLogRecord(event: LogEvent, isolate: SimIsolate): Record<string, unknown> {
  const string = (text: string): Record<string, unknown> => vmInstanceRef({type: 'String', value: text}, () => isolate.nextObjectId())
  return {
    type: 'LogRecord',
    sequenceNumber: event.sequenceNumber,
    time: event.time,
    level: event.level,
    loggerName: string(event.name),
    message: string(event.message),
    zone: vmNull(),
    error: vmNull(),
    stackTrace: vmNull(),
  }
}

function webLogRecord(event: LogEvent): Record<string, unknown> {
  return {
    type: 'LogRecord',
    message: webString(event.message),
    time: event.time,
    level: event.level,
    sequenceNumber: event.sequenceNumber,
    loggerName: webString(event.name),
    zone: webNull(),
    error: webNull(),
    stackTrace: webNull(),
  }
}
