import {hoverAt} from '../gestures.js'
import {pointerVerb} from './pointer-verb.js'

/** A mouse hover event at the widget's centre: the MouseRegion there (the FAB's tooltip) reacts. */
export const hoverVerb = pointerVerb('hover', hoverAt)
