import type {AppSource} from '../../app-contract.js'
import type {Behaviour} from '../behaviour.js'
import type {Rect, View} from '../geometry.js'
import type {AppState} from '../state.js'

/** What every screen is built from: the state to show, the handlers to wire and the view it lays out in. */
export interface BuildContext {
  readonly state: AppState
  readonly on: Behaviour
  readonly view: View
  /** The source as last (re)loaded: a hot reload builds with the new one. */
  readonly source: AppSource
}

/** A place for a page: `at(x, y, w, h)` is a rect relative to the area's top-left. */
export function placer(area: Rect): (x: number, y: number, width: number, height: number) => Rect {
  return (x, y, width, height) => ({left: area.left + x, top: area.top + y, width, height})
}
