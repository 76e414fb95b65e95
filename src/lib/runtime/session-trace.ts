import type {SessionLocation} from '../session/location.js'
import {readTraceState} from '../session/trace-state.js'
import {readTraceStateValue} from '../trace/session-state.js'
import {Tracer} from '../trace/tracer.js'

/** The tracer of the session's trace, when one is on (tapir trace start): it appends to the file
 *  that command started. */
export function sessionTracer(location: SessionLocation, clean?: (text: string) => string): Tracer | undefined {
  const state = readTraceStateValue(readTraceState(location))
  if (!state) return undefined
  return new Tracer({
    file: state.file,
    source: 'session',
    title: 'session',
    version: '',
    screenshots: state.screenshots,
    appendOnly: true,
    ...(clean ? {clean} : {}),
  })
}
