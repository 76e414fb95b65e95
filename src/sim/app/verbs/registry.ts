import {blurVerb} from './blur.js'
import {bootIdVerb} from './boot-id.js'
import {clearVerb} from './clear.js'
import {closeAppVerb} from './close-app.js'
import {consoleVerb} from './console.js'
import {dblclickVerb} from './dblclick.js'
import {dismissModalsVerb} from './dismiss-modals.js'
import {dragVerb} from './drag.js'
import {evaluateSentinelVerb} from './evaluate-sentinel.js'
import {exceptionsVerb} from './exceptions.js'
import {fillVerb} from './fill.js'
import {findVerb} from './find.js'
import {focusVerb} from './focus.js'
import {getRoutesVerb} from './get-routes.js'
import {hoverVerb} from './hover.js'
import {navigateBackVerb} from './navigate-back.js'
import {navigateVerb} from './navigate.js'
import {observeVerb} from './observe.js'
import {perfBeginVerb} from './perf-begin.js'
import {perfEndVerb} from './perf-end.js'
import {perfInsightVerb} from './perf-insight.js'
import {perfTraceVerb} from './perf-trace.js'
import {pressKeyVerb} from './press-key.js'
import {resetOverlaysVerb} from './reset-overlays.js'
import {rightClickVerb} from './right-click.js'
import {screenshotVerb} from './screenshot.js'
import {scrollVerb} from './scroll.js'
import {selectOptionVerb} from './select-option.js'
import {setCheckboxVerb} from './set-checkbox.js'
import {snapVerb} from './snap.js'
import {tapVerb} from './tap.js'
import {tripleClickVerb} from './triple-click.js'
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
  hoverVerb,
  dblclickVerb,
  rightClickVerb,
  tripleClickVerb,
  dragVerb,
  typeVerb,
  fillVerb,
  clearVerb,
  focusVerb,
  blurVerb,
  pressKeyVerb,
  scrollVerb,
  setCheckboxVerb,
  selectOptionVerb,
  navigateVerb,
  navigateBackVerb,
  getRoutesVerb,
  dismissModalsVerb,
  resetOverlaysVerb,
  waitForVerb,
  waitForNetworkIdleVerb,
  consoleVerb,
  exceptionsVerb,
  screenshotVerb,
  evaluateSentinelVerb,
  closeAppVerb,
  perfBeginVerb,
  perfEndVerb,
  perfInsightVerb,
  perfTraceVerb,
  bootIdVerb,
]
