import type {SessionLocation} from '../session/location.js'
import {locateSession} from '../session/location.js'
import {requireSession} from '../session/require-session.js'
import type {Session} from '../session/session.js'
import type {AppTarget, VerbContext} from '../verbs/types.js'
import {AppConnection} from '../vm/app-connection.js'
import {toWebSocketUri} from '../vm/uri.js'

export interface ContextOptions {
  stateFlag?: string
  env: NodeJS.ProcessEnv
  cwd: string
  timeoutMs: number
  /** Re-read the session file on every use (a long-lived MCP server follows restarts). */
  followSession?: boolean
  /** Where progress lines of long work go (the CLI's stderr); dropped when absent. */
  progress?: (line: string) => void
}

type Connection = {uri: string; app: Promise<AppConnection>}

/** A VerbContext backed by the session file: one VM Service connection, opened on first use,
 *  reopened when it dropped or the session now names another app. */
export class SessionContext implements VerbContext {
  readonly cwd: string
  private located: SessionLocation | undefined
  private current: (Session & {vmServiceUri: string}) | undefined
  private connection: Connection | undefined

  constructor(private readonly options: ContextOptions) {
    this.cwd = options.cwd
  }

  get location(): SessionLocation {
    this.located ??= locateSession({stateFlag: this.options.stateFlag, env: this.options.env, cwd: this.cwd})
    return this.located
  }

  private session(): Session & {vmServiceUri: string} {
    if (!this.current || this.options.followSession) this.current = requireSession(this.location, this.cwd)
    return this.current
  }

  async app(): Promise<AppConnection> {
    const uri = toWebSocketUri(this.session().vmServiceUri)
    const seen = this.connection
    if (seen?.uri === uri) {
      const app = await seen.app.catch(() => undefined)
      if (app?.client.isOpen) return app
    }
    // Calls that arrive together share one attempt: only the first to find the connection
    // dead replaces it; the others take the replacement.
    if (this.connection === seen) {
      seen?.app.then((app) => app.close(), () => {})
      this.connection = {uri, app: AppConnection.open(uri, this.options.timeoutMs)}
    }
    return this.connection!.app
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

  progress(line: string): void {
    this.options.progress?.(line)
  }

  close(): void {
    this.connection?.app.then((app) => app.close(), () => {})
    this.connection = undefined
  }
}
