import {sidecarState} from './sidecar-state.js'

/** The session's recording (tapir record start); what it holds is the recorder's (record/state.ts). */
const RECORDING = sidecarState('recording', 'the recording')

export const recordingStatePath = RECORDING.path
export const readRecordingState = RECORDING.read
export const writeRecordingState = RECORDING.write
export const clearRecordingState = RECORDING.clear
