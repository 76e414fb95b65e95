import {sidecarState} from './sidecar-state.js'

/** find's qN handles on an app with no package (`<session>.handles.json`); what they hold is
 *  zero/handles.ts's to read. */
const HANDLES = sidecarState('handles.json', "find's handles")

export const readFindHandles = HANDLES.read
export const updateFindHandles = HANDLES.update
