import {TapirError} from '../errors.js'
import {isJsonObject, type JsonObject} from '../shape.js'
import type {Input, Result} from '../verbs/types.js'
import type {AppConnection} from '../vm/app-connection.js'
import type {Deadline} from '../vm/deadline.js'

// console and exceptions on an app with no package: what the app's isolate carried on the VM
// Service's streams (dart-lang/sdk runtime/vm/service/service.md, "Streams": Logging, Stdout,
// Stderr, Extension), as DDS kept them (AppConnection.streamEvents). Newest first, as the package
// answers; only the isolates running now (a hot restart starts afresh, as the package's buffer).

const LEVELS = ['INFO', 'WARNING', 'ERROR'] as const
type Level = (typeof LEVELS)[number]
const SEVERITY: Readonly<Record<Level, number>> = {INFO: 0, WARNING: 1, ERROR: 2}

interface LogEntry {
  level: Level
  message: string
  time: string
  logger: string
}

/** `developer.log` levels are package:logging's (dart:developer `log`): 900 WARNING, 1000 SEVERE. */
function levelOf(level: unknown): Level {
  if (typeof level !== 'number') return 'INFO'
  return level >= 1000 ? 'ERROR' : level >= 900 ? 'WARNING' : 'INFO'
}

/** A String `@Instance`'s text (service.md `InstanceRef.valueAsString`), marked when the VM cut it. */
function textOf(ref: unknown): string {
  if (!isJsonObject(ref) || typeof ref.valueAsString !== 'string') return ''
  return ref.valueAsString + (ref.valueAsStringIsTruncated === true ? '…' : '')
}

const iso = (ms: unknown): string => new Date(typeof ms === 'number' ? ms : Date.now()).toISOString()

/** Without DDS no one kept what the app logged before this call: refused, naming the fix in the
 *  words of the front end the call came from (start's `dds`, on a device and on the sim alike). */
export async function needHistory(app: AppConnection, deadline: Deadline, verb: string): Promise<void> {
  if (await app.keepsStreamHistory(deadline)) return
  throw new TapirError(
    (words) =>
      `${verb} on an app with no package reads the debug service's stream history, which only DDS keeps: run the app with DDS (${words.only('tapir start --dds', 'tapir_start with dds: true')}, on a device or the sim; flutter run keeps it by default, for ${words.only('tapir attach', 'tapir_attach')}), or run tapir install.`,
    'usage',
  )
}

export async function ofLiveIsolates(app: AppConnection, streamId: string, deadline: Deadline): Promise<JsonObject[]> {
  const events = await app.streamEvents(streamId)
  const live = new Set(await app.isolateIdsNow(deadline))
  return events.filter((event) => !isJsonObject(event.isolate) || live.has(String(event.isolate.id)))
}

/** A `Logging` event's `LogRecord` (service.md `Event.logRecord`): its level, message and logger. */
function logEntry(event: JsonObject): LogEntry | undefined {
  const record = event.logRecord
  if (!isJsonObject(record)) return undefined
  return {
    level: levelOf(record.level),
    message: textOf(record.message),
    time: iso(record.time ?? event.timestamp),
    logger: textOf(record.loggerName),
  }
}

/** `WriteEvent`s carry base64 bytes (service.md `Event.bytes`); a line may span writes (the VM
 *  writes print's text and its newline apart), so the stream is joined and cut at newlines. */
function lines(events: readonly JsonObject[], level: Level, logger: string): LogEntry[] {
  const out: LogEntry[] = []
  let text = ''
  let time: unknown
  for (const event of events) {
    if (event.kind !== 'WriteEvent' || typeof event.bytes !== 'string') continue
    for (const part of Buffer.from(event.bytes, 'base64').toString('utf8').split(/(\n)/)) {
      if (part === '\n') {
        out.push({level, message: text, time: iso(time ?? event.timestamp), logger})
        text = ''
        time = undefined
      } else if (part !== '') {
        time ??= event.timestamp
        text += part
      }
    }
  }
  if (text !== '') out.push({level, message: text, time: iso(time), logger})
  return out
}

export async function consoleFromStreams(app: AppConnection, deadline: Deadline, input: Input): Promise<Result> {
  await needHistory(app, deadline, 'console')
  const logging = (await ofLiveIsolates(app, 'Logging', deadline)).flatMap((event) => logEntry(event) ?? [])
  const stdout = lines(await ofLiveIsolates(app, 'Stdout', deadline), 'INFO', 'stdout')
  const stderr = lines(await ofLiveIsolates(app, 'Stderr', deadline), 'ERROR', 'stderr')
  const wanted = typeof input.minLevel === 'string' ? input.minLevel.toUpperCase() : undefined
  const minLevel = LEVELS.find((level) => level === wanted)
  const floor = minLevel === undefined ? 0 : SEVERITY[minLevel]
  const logs = [...logging, ...stdout, ...stderr]
    .filter((entry) => SEVERITY[entry.level] >= floor)
    .sort((a, b) => (a.time < b.time ? 1 : a.time > b.time ? -1 : 0))
    .slice(0, typeof input.limit === 'number' ? input.limit : 50)
  return {logs, count: logs.length}
}

/**
 * The `Flutter.Error` events on the Extension stream: WidgetInspectorService `_reportStructuredError`
 * (flutter/flutter widgets/widget_inspector.dart) posts one per FlutterError, in a debug build not
 * on the web (`isStructuredErrorsEnabled`: `flutter.inspector.structuredErrors`, default `!kIsWeb`),
 * with the error node's JSON: `description` is FlutterErrorDetails.toStringShort ("Exception caught
 * by <library>", foundation/assertions.dart), `renderedErrorText` the whole report for the first
 * error since a reload and "Another exception was thrown: <summary>" after it.
 */
export async function exceptionsFromStreams(app: AppConnection, deadline: Deadline, input: Input): Promise<Result> {
  if (input.clear === true)
    throw new TapirError(
      (words) =>
        `exceptions ${words.param('clear')} has no zero-install form (the errors are the debug service's history, not the app's buffer): pass ${words.param('since')} with the time of your last read, or run tapir install.`,
      'usage',
    )
  await needHistory(app, deadline, 'exceptions')
  const since = typeof input.since === 'string' ? Date.parse(input.since) : Number.NaN
  const exceptions = (await ofLiveIsolates(app, 'Extension', deadline))
    .flatMap((event) =>
      event.extensionKind === 'Flutter.Error' && isJsonObject(event.extensionData)
        ? [errorEntry(event.extensionData, event.timestamp)]
        : [],
    )
    .filter((entry) => Number.isNaN(since) || Date.parse(entry.time) > since)
    .reverse()
    .slice(0, typeof input.limit === 'number' ? input.limit : 20)
  return {exceptions, count: exceptions.length}
}

const ANOTHER = 'Another exception was thrown: '

function errorEntry(data: JsonObject, timestamp: unknown): {type: string; message: string; library: string; time: string} {
  const rendered = typeof data.renderedErrorText === 'string' ? data.renderedErrorText : ''
  const description = typeof data.description === 'string' ? data.description : ''
  return {
    type: 'FlutterError',
    message: rendered.startsWith(ANOTHER) ? rendered.slice(ANOTHER.length) : reportBody(rendered),
    library: description.replace(/^Exception caught by /, ''),
    time: iso(timestamp),
  }
}

/** The rendered report without its `══╡ EXCEPTION CAUGHT BY … ╞══` banner, its closing rule and
 *  the "The following … was thrown …:" line (TextTreeRenderer of the error-style node). */
function reportBody(rendered: string): string {
  const kept = rendered.split('\n').filter((line) => !/^═+(╡.*╞═*)?$/.test(line.trim()) && !/^The following .* was thrown/.test(line))
  return kept.join('\n').trim()
}
