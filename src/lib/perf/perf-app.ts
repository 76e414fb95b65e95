import type {AppConnection} from '../vm/app-connection.js'
import {Deadline} from '../vm/deadline.js'

/** The app as a perf run calls it. A run lasts many times one call, so each call gets its own
 *  deadline (--timeout, plus what the call itself waits in the app) instead of the verb's one. */
export interface PerfApp {
  callExtension(method: string, params: Record<string, string>, waitsMs?: number): Promise<Record<string, unknown>>
  hotRestart(): Promise<void>
}

export function perfApp(app: AppConnection, timeoutMs: number): PerfApp {
  return {
    callExtension: (method, params, waitsMs = 0) => app.callExtension(method, params, new Deadline(timeoutMs, waitsMs)),
    hotRestart: () => app.hotRestart(),
  }
}
