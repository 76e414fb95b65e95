import type {CapturedError} from '../diagnostics.js'
import type {ExtensionHandler} from './extension-handler.js'

/** The captured FlutterErrors, deduplicated, newest first; `since` keeps the strictly later ones, `clear` empties the buffer. */
export const exceptionsHandler: ExtensionHandler = {
  name: 'exceptions',
  cites: 'tapir_exceptions',
  wakesFrames: false,
  run(app, params) {
    const since = Date.parse(params.optional('since') ?? '')
    const seen = new Set<string>()
    const exceptions: CapturedError[] = []
    for (const error of [...app.diagnostics.errors].reverse()) {
      const identity = JSON.stringify([error.type, error.message, error.stackHead])
      if (seen.has(identity) || (!Number.isNaN(since) && Date.parse(error.time) <= since)) continue
      seen.add(identity)
      exceptions.push(error)
    }
    const clipped = exceptions.slice(0, params.int('limit', 20))
    if (params.bool('clear', false)) app.diagnostics.errors.length = 0
    return {exceptions: clipped, count: clipped.length}
  },
}
