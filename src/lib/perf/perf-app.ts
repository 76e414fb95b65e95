import type {Shape} from '../shape.js'
import type {AppConnection} from '../vm/app-connection.js'
import {Deadline} from '../vm/deadline.js'
import type {Slicer} from '../vm/sliced-waits.js'

/** The app as a perf run calls it. A run lasts many times one call, so each call gets its own
 *  deadline (--timeout, plus what the call itself waits in the app) instead of the verb's one. */
export interface PerfApp {
  /** `ext.tapir.<method>`, its answer checked against `shape` (what the run reads of it); a call
   *  that waits in the app says how it is asked for in `slices` (vm/sliced-waits.ts). */
  callExtension<T>(method: string, params: Record<string, string>, shape: Shape<T>, waitsMs?: number, slices?: Slicer): Promise<T>
  hotRestart(): Promise<void>
}

export function perfApp(app: AppConnection, timeoutMs: number): PerfApp {
  return {
    callExtension: (method, params, shape, waitsMs = 0, slices) =>
      app.callExtension(method, params, shape, new Deadline(timeoutMs, waitsMs), slices?.(method, params)),
    hotRestart: () => app.hotRestart(),
  }
}
