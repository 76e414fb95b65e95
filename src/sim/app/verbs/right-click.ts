import {rightClickAt} from '../gestures.js'
import {pointerVerb} from './pointer-verb.js'

/** A secondary-button click (mouse, kSecondaryButton): down, 50 ms, up. */
export const rightClickVerb = pointerVerb('right_click', rightClickAt, {button: 'right'})
