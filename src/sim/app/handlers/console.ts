import type {LogEntry} from '../diagnostics.js'
import type {ExtensionHandler} from './extension-handler.js'

const SEVERITY: Readonly<Record<LogEntry['level'], number>> = {INFO: 0, WARNING: 1, ERROR: 2}

/** The captured debugPrint entries, newest first (no crumbs wired in this app). */
export const consoleHandler: ExtensionHandler = {
  name: 'console',
  wakesFrames: false,
  run(app, params) {
    const minLevel = params.optional('minLevel')?.toUpperCase() as LogEntry['level'] | undefined
    const floor = minLevel === undefined ? 0 : (SEVERITY[minLevel] ?? 0)
    const logs = [...app.diagnostics.log]
      .reverse()
      .filter((entry) => SEVERITY[entry.level] >= floor)
      .slice(0, params.int('limit', 50))
    return {logs, count: logs.length}
  },
}
