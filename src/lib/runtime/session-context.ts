import type {SessionLocation} from '../session/location.js'
import {locateSession} from '../session/location.js'
import {requireSession} from '../session/require-session.js'
import type {Session} from '../session/session.js'
import type {VerbContext} from '../verbs/types.js'
import {AppConnection} from '../vm/app-connection.js'
import {toWebSocketUri} from '../vm/uri.js'

export interface ContextOptions {
  stateFlag?: string
  env: NodeJS.ProcessEnv
  cwd: string
  timeoutMs: number
  /** Re-read the session file on every use (a long-lived MCP server follows restarts). */
  followSession?: boolean
}

/** A VerbContext backed by the session file: one VM Service connection, opened on first use,
 *  reopened when it dropped or the session now names another app. */
export class SessionContext implements VerbContext {
  readonly cwd: string
  readonly location: SessionLocation
  private current: (Session & {vmServiceUri: string}) | undefined
  private connection: {uri: string; app: Promise<AppConnection>} | undefined

  constructor(private readonly options: ContextOptions) {
    this.cwd = options.cwd
    this.location = locateSession({stateFlag: options.stateFlag, env: options.env, cwd: options.cwd})
  }

  session(): Session & {vmServiceUri: string} {
    if (!this.current || this.options.followSession) this.current = requireSession(this.location, this.cwd)
    return this.current
  }

  async app(): Promise<AppConnection> {
    const uri = toWebSocketUri(this.session().vmServiceUri)
    if (this.connection?.uri === uri) {
      // Calls that arrive together share one connection attempt.
      const app = await this.connection.app.catch(() => undefined)
      if (app?.client.isOpen) return app
    }
    this.close()
    const app = AppConnection.open(uri, this.options.timeoutMs)
    this.connection = {uri, app}
    return app
  }

  close(): void {
    this.connection?.app.then((app) => app.close(), () => {})
    this.connection = undefined
  }
}
