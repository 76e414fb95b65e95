import type {Frame, SemNode} from './frame.js'
import {centre, type Rect} from './geometry.js'
import {hitTest, reaches, tapHandler} from './hit-test.js'
import {descendantsOf} from './semantics.js'
import {isVisible} from './visibility.js'

/** The one control inside a merge boundary that a tap on the boundary should reach. */
export interface TapOwner {
  readonly rect: Rect
  /** A hit test at the control's own centre reaches it inside the viewport. */
  readonly retargets: boolean
  /** The boundary's centre has a tap handler of its own. */
  readonly centreHandled: boolean
}

/** Present only for a merge boundary whose centre is not on its single tappable control. */
export function tapOwnerOf(frame: Frame, boundary: SemNode): TapOwner | null {
  if (!boundary.owner.ui.mergesDescendants) return null
  const controls = descendantsOf(boundary).filter((sem) => sem.mergedIntoParent && sem.data.tap)
  const [control] = controls
  if (controls.length !== 1 || control === undefined) return null
  const centrePath = hitTest(frame, centre(boundary.data.rect))
  if (reaches(centrePath, control.owner)) return null
  return {
    rect: control.data.rect,
    retargets: isVisible(control.owner) && reaches(hitTest(frame, centre(control.data.rect)), control.owner),
    centreHandled: tapHandler(centrePath) !== undefined,
  }
}
