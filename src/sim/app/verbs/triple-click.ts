import {tripleClickAt} from '../gestures.js'
import {pointerVerb} from './pointer-verb.js'

/** Three primary clicks ~100 ms apart, gated once; in a text field this selects the whole text. */
export const tripleClickVerb = pointerVerb('triple_click', tripleClickAt, {clickCount: 3})
