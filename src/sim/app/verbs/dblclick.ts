import {doubleClickAt} from '../gestures.js'
import {pointerVerb} from './pointer-verb.js'

/** Two primary clicks ~100 ms apart, gated once before the first. */
export const dblclickVerb = pointerVerb('dblclick', doubleClickAt)
