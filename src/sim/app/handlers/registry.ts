import {blurHandler} from './blur.js'
import {bootIdHandler} from './boot-id.js'
import {clearHandler} from './clear.js'
import {closeAppHandler} from './close-app.js'
import {consoleHandler} from './console.js'
import {dblclickHandler} from './dblclick.js'
import {dismissModalsHandler} from './dismiss-modals.js'
import {dragHandler} from './drag.js'
import {evaluateSentinelHandler} from './evaluate-sentinel.js'
import {exceptionsHandler} from './exceptions.js'
import type {ExtensionHandler} from './extension-handler.js'
import {fillHandler} from './fill.js'
import {findByLabelHandler} from './find-by-label.js'
import {findByTextHandler} from './find-by-text.js'
import {findHandler} from './find.js'
import {focusHandler} from './focus.js'
import {getRoutesHandler} from './get-routes.js'
import {hoverHandler} from './hover.js'
import {navigateBackHandler} from './navigate-back.js'
import {navigateHandler} from './navigate.js'
import {observeHandler} from './observe.js'
import {perfBeginHandler} from './perf-begin.js'
import {perfEndHandler} from './perf-end.js'
import {perfInsightHandler} from './perf-insight.js'
import {perfTraceHandler} from './perf-trace.js'
import {pressKeyHandler} from './press-key.js'
import {resetOverlaysHandler} from './reset-overlays.js'
import {rightClickHandler} from './right-click.js'
import {screenshotHandler} from './screenshot.js'
import {scrollHandler} from './scroll.js'
import {selectOptionHandler} from './select-option.js'
import {semanticsHoldHandler} from './semantics-hold.js'
import {setCheckboxHandler} from './set-checkbox.js'
import {snapHandler} from './snap.js'
import {tapHandler} from './tap.js'
import {tripleClickHandler} from './triple-click.js'
import {typeHandler} from './type.js'
import {waitForNetworkIdleHandler} from './wait-for-network-idle.js'
import {waitForHandler} from './wait-for.js'

/** Every extension the app registers, `boot_id` last. */
export const EXTENSION_HANDLERS: readonly ExtensionHandler[] = [
  snapHandler,
  observeHandler,
  findHandler,
  findByTextHandler,
  tapHandler,
  hoverHandler,
  dblclickHandler,
  rightClickHandler,
  tripleClickHandler,
  dragHandler,
  typeHandler,
  fillHandler,
  clearHandler,
  focusHandler,
  blurHandler,
  pressKeyHandler,
  scrollHandler,
  setCheckboxHandler,
  selectOptionHandler,
  navigateHandler,
  navigateBackHandler,
  getRoutesHandler,
  dismissModalsHandler,
  resetOverlaysHandler,
  waitForHandler,
  waitForNetworkIdleHandler,
  consoleHandler,
  exceptionsHandler,
  screenshotHandler,
  evaluateSentinelHandler,
  closeAppHandler,
  perfBeginHandler,
  perfEndHandler,
  perfInsightHandler,
  perfTraceHandler,
  semanticsHoldHandler,
  bootIdHandler,
]

/** What the model runs for Dusk 0.0.1's extensions alone: tapir's package registers none of these. */
export const DUSK_ONLY_HANDLERS: readonly ExtensionHandler[] = [findByLabelHandler]
