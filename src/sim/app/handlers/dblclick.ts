import {doubleClickAt} from '../gestures.js'
import {pointerHandler} from './pointer-handler.js'

/** Two primary clicks ~100 ms apart, gated once before the first. */
export const dblclickHandler = pointerHandler('dblclick', 'tapir_dblclick', doubleClickAt)
