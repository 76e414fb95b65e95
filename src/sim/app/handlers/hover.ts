import {hoverAt} from '../gestures.js'
import {pointerHandler} from './pointer-handler.js'

/** A mouse hover event at the widget's centre: the MouseRegion there (the FAB's tooltip) reacts. */
export const hoverHandler = pointerHandler('hover', 'tapir_hover', hoverAt)
