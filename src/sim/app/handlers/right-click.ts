import {rightClickAt} from '../gestures.js'
import {pointerHandler} from './pointer-handler.js'

/** A secondary-button click (mouse, kSecondaryButton): down, 50 ms, up. */
export const rightClickHandler = pointerHandler('right_click', 'tapir_right_click', rightClickAt, {button: 'right'})
