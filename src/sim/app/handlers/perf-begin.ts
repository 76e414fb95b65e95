import {invalidParams} from '../perf/params.js'
import {PERF_MODES, type PerfMode} from '../perf/types.js'
import type {ExtensionHandler} from './extension-handler.js'

/** Opens a performance session (restarting an open one): zeroes the frame buffer and counters, records the liveness baseline. */
export const perfBeginHandler: ExtensionHandler = {
  name: 'perf_begin',
  cites: 'tapir_perf_begin',
  wakesFrames: false,
  run(app, params) {
    const raw = params.optional('mode') ?? 'attribution'
    if (!PERF_MODES.includes(raw as PerfMode)) {
      throw invalidParams(`ext.tapir.perf_begin: unknown mode "${raw}"; use "attribution" or "timing"`, 'unexpected')
    }
    const mode = raw as PerfMode
    const phases = params.bool('phases', false)
    if (phases && mode === 'timing') {
      throw invalidParams(
        'ext.tapir.perf_begin: phases profiles layout and paint, which timing mode never turns on; drop phases or use mode "attribution"',
        'unexpected',
      )
    }
    const {session, restarted} = app.perf.begin(mode, phases)
    return {sessionToken: session.token, mode, phases, livenessBaseline: session.livenessBaseline, restartedPreviousSession: restarted}
  },
}
