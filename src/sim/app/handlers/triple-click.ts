import {tripleClickAt} from '../gestures.js'
import {pointerHandler} from './pointer-handler.js'

/** Three primary clicks ~100 ms apart, gated once; in a text field this selects the whole text. */
export const tripleClickHandler = pointerHandler('triple_click', 'tapir_triple_click', tripleClickAt, {clickCount: 3})
