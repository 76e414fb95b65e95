import {sidecarState} from './sidecar-state.js'

/** The session's trace (tapir trace start); what it holds is trace/'s to read. */
const TRACE = sidecarState('tracing', 'the trace')

export const traceStatePath = TRACE.path
export const readTraceState = TRACE.read
export const writeTraceState = TRACE.write
export const clearTraceState = TRACE.clear
