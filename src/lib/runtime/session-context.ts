import type {ChromeEndpoint} from '../cdp/page.js'
import {isSeen, Recorder} from '../record/recorder.js'
import type {RecordingStore} from '../record/state.js'
import {readFindHandles, updateFindHandles} from '../session/find-handles.js'
import {HoldStack} from '../session/hold-stack.js'
import type {SessionLocation} from '../session/location.js'
import {locateSession} from '../session/location.js'
import {readPerfState, updatePerfState} from '../session/perf-state.js'
import {checkOwnership, requireSession} from '../session/require-session.js'
import type {Session} from '../session/session.js'
import {readSession, writeSession} from '../session/store.js'
import type {Shape} from '../shape.js'
import {RefMemory} from '../verbs/ref-memory.js'
import type {AppTarget, CallRecorder, SharedState, Verb, VerbContext} from '../verbs/types.js'
import {AppConnection} from '../vm/app-connection.js'
import type {Deadline} from '../vm/deadline.js'
import {toWebSocketUri} from '../vm/uri.js'
import {reloadApp, type ReloadKind, type Reloaded} from './reload-app.js'
import {sessionRecorder} from './session-recording.js'

export interface ContextOptions {
  stateFlag?: string
  env: NodeJS.ProcessEnv
  cwd: string
  timeoutMs: number
  /** Re-read the session file on every use (a long-lived MCP server follows restarts). */
  followSession?: boolean
  /** Where a running verb's progress lines go (the CLI: stderr). */
  progress?: (line: string) => void
  /** A recording of this context's own (mcp:serve --record), instead of the session's. */
  recording?: RecordingStore
}

type Connection = {uri: string; app: Promise<AppConnection>}

const STOP_SIGNALS = ['SIGINT', 'SIGTERM', 'SIGHUP'] as const

/** A VerbContext backed by the session file: one VM Service connection, opened on first use,
 *  reopened when it dropped or the session now names another app. */
export class SessionContext implements VerbContext {
  readonly cwd: string
  readonly timeoutMs: number
  readonly refs = new RefMemory()
  private located: SessionLocation | undefined
  private current: (Session & {vmServiceUri: string}) | undefined
  private connection: Connection | undefined
  private ownRecorder: Recorder | undefined

  constructor(private readonly options: ContextOptions) {
    this.cwd = options.cwd
    this.timeoutMs = options.timeoutMs
  }

  get location(): SessionLocation {
    this.located ??= locateSession({stateFlag: this.options.stateFlag, env: this.options.env, cwd: this.cwd})
    return this.located
  }

  private session(): Session & {vmServiceUri: string} {
    if (!this.current || this.options.followSession) this.current = requireSession(this.location, this.cwd)
    return this.current
  }

  chrome(): ChromeEndpoint | undefined {
    const session = readSession(this.location)
    if (!session) return undefined
    checkOwnership(this.location, session, this.cwd)
    const port = portNumber(session.cdpPort)
    if (port === undefined) return undefined
    const webPort = portNumber(session.webPort)
    return webPort === undefined ? {port} : {port, webPort}
  }

  /** This context's own recording, else the session's when one is on. */
  recorder(verb: Verb): CallRecorder | undefined {
    if (!isSeen(verb)) return undefined
    if (this.options.recording) return (this.ownRecorder ??= new Recorder(this.options.recording))
    let location: SessionLocation
    try {
      location = this.location
    } catch {
      return undefined // no home folder: no session, so no session recording either
    }
    return sessionRecorder(location)
  }

  progress(line: string): void {
    this.options.progress?.(line)
  }

  /** Aborts on the first SIGINT, SIGTERM or SIGHUP (the terminal closed) after the call, and
   *  then no longer ends the process, so the verb can undo what it holds first. */
  interrupted(): AbortSignal {
    const controller = new AbortController()
    const stop = (): void => {
      for (const signal of STOP_SIGNALS) process.off(signal, stop)
      controller.abort()
    }
    for (const signal of STOP_SIGNALS) process.on(signal, stop)
    return controller.signal
  }

  /** The viewport holders of this session's Chrome page, in a file beside the session. */
  holdStack<T>(held: Shape<T>): HoldStack<T> {
    return new HoldStack(this.location, `${this.location.path}.holds`, held)
  }

  /** find's zero-install handles, in a file beside the session. */
  handleState(): SharedState {
    const location = this.location
    return {
      read: () => readFindHandles(location),
      update: (change) => updateFindHandles(location, 'tapir:find', change),
    }
  }

  async app(deadline: Deadline): Promise<AppConnection> {
    return deadline.race(this.openConnection(), "the VM Service's WebSocket handshake")
  }

  private async openConnection(): Promise<AppConnection> {
    const uri = toWebSocketUri(this.session().vmServiceUri)
    const seen = this.connection
    if (seen?.uri === uri) {
      const app = await seen.app.catch(() => undefined)
      if (app?.client.isOpen) return app
    }
    // Calls that arrive together share one attempt: only the first to find the connection
    // dead replaces it; the others take the replacement.
    if (this.connection !== seen && this.connection) return this.connection.app
    seen?.app.then(
      (app) => app.close(),
      () => {},
    )
    const restartedAt = Date.parse(String(this.session().restartedAt))
    const connection = {uri, app: AppConnection.open(uri, this.options.timeoutMs, Number.isNaN(restartedAt) ? {} : {restartedAt})}
    this.connection = connection
    return connection.app
  }

  async reload(kind: ReloadKind, deadline: Deadline): Promise<Reloaded> {
    const reloaded = await reloadApp(this.session(), () => this.app(deadline), kind, deadline)
    this.noteRestart()
    return reloaded
  }

  /** A reload may have replaced the isolate (a restart; on the web, a reload too): this
   *  connection and the next tapir process wait for tapir's extensions on the new one. */
  private noteRestart(): void {
    const at = Date.now()
    this.connection?.app.then(
      (app) => app.sawRestart(at),
      () => {},
    )
    try {
      const session = readSession(this.location)
      if (session) writeSession(this.location, {...session, restartedAt: new Date(at).toISOString()})
    } catch {
      // Only a hint for the next verb: a session that cannot be written now still works.
    }
    if (this.current) this.current = {...this.current, restartedAt: new Date(at).toISOString()}
  }

  target(): AppTarget {
    const {device, cdpPort} = this.session()
    return {...(typeof device === 'string' ? {device} : {}), cdpPort: typeof cdpPort === 'number' ? cdpPort : null}
  }

  reset(): void {
    this.close()
    this.current = undefined
  }

  sessionFile(): string {
    return this.location.path
  }

  /** A zero-install perf session, in a file beside the session. */
  perfState(): SharedState {
    const location = this.location
    return {
      read: () => readPerfState(location),
      update: (change) => updatePerfState(location, 'tapir:perf_begin', change),
    }
  }

  close(): void {
    this.connection?.app.then(
      (app) => app.close(),
      () => {},
    )
    this.connection = undefined
  }
}

/** The session's ports may be numbers or numeric text (the Dart tooling writes either). */
function portNumber(value: Session['cdpPort']): number | undefined {
  const port = Number(value ?? Number.NaN)
  return port > 0 && port < 65536 ? port : undefined
}
