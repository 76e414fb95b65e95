import {chromeTrace} from '../perf/trace.js'
import type {ExtensionHandler} from './extension-handler.js'

/** The last closed session's frames as Chrome Trace JSON. */
export const perfTraceHandler: ExtensionHandler = {
  name: 'perf_trace',
  cites: 'tapir_perf_trace',
  wakesFrames: false,
  run: (app, params) => chromeTrace(app.perf.closedFor('perf_trace', params.optional('token'))),
}
