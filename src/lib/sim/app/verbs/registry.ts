import {bootIdVerb} from './boot-id.js'
import {consoleVerb} from './console.js'
import {dismissModalsVerb} from './dismiss-modals.js'
import {exceptionsVerb} from './exceptions.js'
import {fillVerb} from './fill.js'
import {findVerb} from './find.js'
import {getRoutesVerb} from './get-routes.js'
import {navigateBackVerb} from './navigate-back.js'
import {navigateVerb} from './navigate.js'
import {observeVerb} from './observe.js'
import {selectOptionVerb} from './select-option.js'
import {setCheckboxVerb} from './set-checkbox.js'
import {snapVerb} from './snap.js'
import {tapVerb} from './tap.js'
import {typeVerb} from './type.js'
import type {Verb} from './verb.js'
import {waitForNetworkIdleVerb} from './wait-for-network-idle.js'
import {waitForVerb} from './wait-for.js'

/** Every extension the app registers, `boot_id` last. */
export const VERBS: readonly Verb[] = [
  snapVerb,
  observeVerb,
  findVerb,
  tapVerb,
  typeVerb,
  fillVerb,
  setCheckboxVerb,
  selectOptionVerb,
  navigateVerb,
  navigateBackVerb,
  getRoutesVerb,
  dismissModalsVerb,
  waitForVerb,
  waitForNetworkIdleVerb,
  consoleVerb,
  exceptionsVerb,
  bootIdVerb,
]
