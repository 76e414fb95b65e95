import type {ExtensionHandler} from './extension-handler.js'

/** Closes the session: the bounded report, or a refusal with no metrics when the engine drew (almost) nothing. */
export const perfEndHandler: ExtensionHandler = {
  name: 'perf_end',
  cites: 'tapir_perf_end',
  wakesFrames: false,
  run: (app, params) => app.perf.end(params.bool('full', false), app.perfEnv),
}
