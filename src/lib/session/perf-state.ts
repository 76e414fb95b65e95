import {sidecarState} from './sidecar-state.js'

/** A zero-install perf session (src/lib/zero/perf.ts): its window, and the last closed one's insights. */
const PERF = sidecarState('perf', 'the perf session')

export const readPerfState = PERF.read
export const updatePerfState = PERF.update
