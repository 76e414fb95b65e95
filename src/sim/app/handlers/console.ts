import type {LogEntry} from '../diagnostics.js'
import type {ExtensionHandler} from './extension-handler.js'

const SEVERITY: Readonly<Record<LogEntry['level'], number>> = {INFO: 0, WARNING: 1, ERROR: 2}

/**
 * The debugPrint entries TapirPlugin captured, newest first, then crumbs' entries in the order
 * crumbs returns them (newest first too). A repeat of the same level, message and logger is
 * dropped, the debugPrint copy winning, and `limit` then cuts from the end.
 */
export const consoleHandler: ExtensionHandler = {
  name: 'console',
  cites: 'tapir_console',
  wakesFrames: false,
  run(app, params) {
    const minLevel = params.optional('minLevel')?.toUpperCase() as LogEntry['level'] | undefined
    const floor = minLevel === undefined ? 0 : (SEVERITY[minLevel] ?? 0)
    const limit = params.int('limit', 50)
    const atLeast = (entry: LogEntry): boolean => SEVERITY[entry.level] >= floor
    const buffered = [...app.diagnostics.log].reverse().filter(atLeast)
    const crumbs = [...app.diagnostics.crumbs].reverse().filter(atLeast).slice(0, limit)
    const seen = new Set<string>()
    const logs = [...buffered, ...crumbs].filter((entry) => {
      const key = JSON.stringify([entry.level, entry.message, entry.logger])
      if (seen.has(key)) return false
      seen.add(key)
      return true
    })
    const clipped = logs.slice(0, limit)
    return {logs: clipped, count: clipped.length}
  },
}
