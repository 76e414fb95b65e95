import {chromeTrace} from '../perf/trace.js'
import type {Verb} from './verb.js'

/** The last closed session's frames as Chrome Trace JSON. */
export const perfTraceVerb: Verb = {
  name: 'perf_trace',
  wakesFrames: false,
  run: (app, params) => chromeTrace(app.perf.closedFor('perf_trace', params.optional('token'))),
}
