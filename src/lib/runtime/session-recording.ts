import {Recorder} from '../record/recorder.js'
import {readState, type RecordingStore} from '../record/state.js'
import type {SessionLocation} from '../session/location.js'
import {readRecordingState, writeRecordingState} from '../session/recording.js'

/** The session's recording state, kept beside its session file. */
export function sessionRecordingStore(location: SessionLocation): RecordingStore {
  return {
    load: () => readState(readRecordingState(location)),
    save: (state) => writeRecordingState(location, state),
  }
}

/** The recorder for the session's recording, when one is on. */
export function sessionRecorder(location: SessionLocation): Recorder | undefined {
  const store = sessionRecordingStore(location)
  return store.load() ? new Recorder(store) : undefined
}
