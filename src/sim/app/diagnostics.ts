/** What the app records besides its widgets: the debugPrint log, crumbs' log store, captured
 *  FlutterErrors, in-flight requests and drawn frames. Later verbs (console, exceptions,
 *  wait_for_network_idle, perf_*) read these; what the app logs, posts and prints also reaches
 *  the debug service's streams through `emit`. */
import type {DeveloperEvent} from '../app-contract.js'

export interface LogEntry {
  readonly level: 'INFO' | 'WARNING' | 'ERROR'
  readonly message: string
  readonly time: string
  readonly logger: string
}

export interface CapturedError {
  readonly type: string
  readonly message: string
  readonly stackHead: string
  readonly library: string
  readonly fatal: false
  readonly time: string
}

interface Request {
  readonly url: string
  readonly endsAt: number
}

/** TapirPlugin's debugPrint ring buffer. */
const LOG_CAPACITY = 50
/** crumbs keeps more than tapir's own buffer. */
const CRUMBS_CAPACITY = 200

/** `developer.log` levels (package:logging's values). */
export const LOG_LEVEL = {info: 800, warning: 900, severe: 1000} as const

export class Diagnostics {
  /** What TapirPlugin's debugPrint hook captured. */
  readonly log: LogEntry[] = []
  /** crumbs' log store: every `developer.log` record, and its own copy of each debugPrint line. */
  readonly crumbs: LogEntry[] = []
  readonly errors: CapturedError[] = []
  private readonly requests: Request[] = []
  private sequence = 0
  /** WidgetInspectorService `_errorsSinceReload`. */
  private errorsSinceReload = 0
  framesDrawn = 0

  constructor(
    private readonly now: () => number,
    private readonly emit: (event: DeveloperEvent) => void = () => {},
  ) {}

  /** `debugPrint`: TapirPlugin's buffer and crumbs both capture it, and it prints. */
  debugPrint(message: string): void {
    const entry: LogEntry = {level: 'INFO', message, time: this.isoNow(), logger: 'debugPrint'}
    this.log.push(entry)
    if (this.log.length > LOG_CAPACITY) this.log.shift()
    this.keep(entry)
    this.emit({kind: 'print', text: message})
  }

  /** `developer.log(message, name: name, level: level)`: crumbs records it, and the Logging stream carries it. */
  developerLog(message: string, name: string, level: number = LOG_LEVEL.info): void {
    const entry: LogEntry = {
      level: level >= LOG_LEVEL.severe ? 'ERROR' : level >= LOG_LEVEL.warning ? 'WARNING' : 'INFO',
      message,
      time: this.isoNow(),
      logger: name,
    }
    this.keep(entry)
    this.emit({kind: 'log', message, name, level, sequenceNumber: this.sequence++, time: this.now()})
  }

  /** A non-fatal FlutterError: the capture buffer keeps it and the framework posts it as
   *  `Flutter.Error`, shaped as WidgetInspectorService `_reportStructuredError` shapes it
   *  (flutter/flutter widgets/widget_inspector.dart): the error node's JSON, whose `description`
   *  is FlutterErrorDetails.toStringShort (foundation/assertions.dart), plus `errorsSinceReload`
   *  and `renderedErrorText`, the whole report the first time and one line after. */
  recordError(error: Omit<CapturedError, 'fatal' | 'time'>): void {
    this.errors.push({...error, fatal: false, time: this.isoNow()})
    const summary = error.message.split('\n')[0] ?? ''
    const banner = `══╡ EXCEPTION CAUGHT BY ${error.library.toUpperCase()} ╞`
    const renderedErrorText =
      this.errorsSinceReload === 0
        ? [banner.padEnd(100, '═'), 'The following assertion was thrown during layout:', error.message, '═'.repeat(100)].join('\n')
        : `Another exception was thrown: ${summary}`
    this.emit({
      kind: 'post',
      extensionKind: 'Flutter.Error',
      data: {
        description: `Exception caught by ${error.library}`,
        type: '_FlutterErrorDetailsNode',
        hasChildren: true,
        errorsSinceReload: this.errorsSinceReload++,
        renderedErrorText,
      },
    })
  }

  startRequest(url: string, durationMs: number): void {
    this.requests.push({url, endsAt: this.now() + durationMs})
    this.developerLog(url, 'monitors.http')
  }

  inFlight(): number {
    const now = this.now()
    return this.requests.filter((r) => r.endsAt > now).length
  }

  private keep(entry: LogEntry): void {
    this.crumbs.push(entry)
    if (this.crumbs.length > CRUMBS_CAPACITY) this.crumbs.shift()
  }

  private isoNow(): string {
    return new Date(this.now()).toISOString()
  }
}
