/** What the app records besides its widgets: the debugPrint log, captured FlutterErrors,
 *  in-flight requests and drawn frames. Later verbs (console, exceptions,
 *  wait_for_network_idle, perf_*) read these. */

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

const LOG_CAPACITY = 50

export class Diagnostics {
  readonly log: LogEntry[] = []
  readonly errors: CapturedError[] = []
  private readonly requests: Request[] = []
  framesDrawn = 0

  constructor(private readonly now: () => number) {}

  debugPrint(message: string): void {
    this.log.push({level: 'INFO', message, time: this.isoNow(), logger: 'debugPrint'})
    if (this.log.length > LOG_CAPACITY) this.log.shift()
  }

  recordError(error: Omit<CapturedError, 'fatal' | 'time'>): void {
    this.errors.push({...error, fatal: false, time: this.isoNow()})
  }

  startRequest(url: string, durationMs: number): void {
    this.requests.push({url, endsAt: this.now() + durationMs})
  }

  inFlight(): number {
    const now = this.now()
    return this.requests.filter((r) => r.endsAt > now).length
  }

  private isoNow(): string {
    return new Date(this.now()).toISOString()
  }
}
