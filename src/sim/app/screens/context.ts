import type {Behaviour} from '../behaviour.js'
import type {AppState} from '../state.js'

/** What every screen is built from: the state to show and the handlers to wire. */
export interface BuildContext {
  readonly state: AppState
  readonly on: Behaviour
}
