/** What the supervisor tells a watcher (`tapir start`), one JSON object a line on its socket. */
export type SupervisorEvent =
  | {event: 'flutter'; pid: number}
  | {event: 'progress'; message: string}
  /** A line flutter printed on stderr while the app booted (its errors, the compiler's among them). */
  | {event: 'error'; line: string}
  | {event: 'webLaunchUrl'; url: string}
  | {event: 'debugPort'; wsUri: string}
  | {event: 'started'}
  | {event: 'exited'; code: number | null; error?: string}

/** What a client asks the supervisor, one JSON object a line. */
export type SupervisorRequest = {op: 'watch'} | {op: 'restart'; fullRestart: boolean} | {op: 'stop'}

/** The supervisor's answer to restart and stop. A reload flutter ran as a full restart (the web
 *  runner does) says `restarted`; one that reached no browser says `noClient`. A failure carries
 *  the error lines flutter printed while it ran (`compileError`). */
export type SupervisorReply =
  {ok: true; message: string; restarted?: boolean; noClient?: boolean} | {ok: false; message: string; compileError?: string}

/** The handshake with `tapir start`, one line each way on the supervisor's stdin and stdout: it
 *  says READY once its socket accepts connections, and starts flutter only on GO, which start
 *  sends once the session records the supervisor. */
export const READY = 'ready'
export const GO = 'go'

/** The longest a client's request line may be; a longer one ends that client. */
export const MAX_REQUEST_BYTES = 64 * 1024

/** How long the supervisor waits for flutter at each step of stopping (app.stop, then SIGTERM)
 *  before the next, harder one. */
export const STOP_STEP_MS = 5000
/** How long a SIGTERM'd supervisor may take to stop flutter that way before it is killed. */
export const SUPERVISOR_STOP_MS = 2 * STOP_STEP_MS + 2000
