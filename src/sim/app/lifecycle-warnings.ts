import type {Lifecycle} from './app-model.js'

const DESKTOP_PLATFORM = 'linux'

const DESKTOP_HINT =
  'The engine is not producing frames: the window is hidden, minimised or occluded, or the display is asleep. ' +
  'The semantics tree is not rebuilt and gestures cannot take effect, so this result may be stale. Show the window and retry.'

const WEB_HINT =
  'The browser tab is in the background, and Chrome withholds animation frames from a hidden tab, so the engine draws none. ' +
  'The semantics tree is not rebuilt and gestures cannot take effect, so this result may be stale. ' +
  'Bring the page to front (CDP Page.bringToFront) and retry.'

/** The block a frame-forcing verb adds when the app draws no frames and tapir could not wake it:
 *  `platform` is `web` or the desktop TargetPlatform name, and the hint names the usual cause there. */
export function framesWarning(lifecycle: Lifecycle, web: boolean): Record<string, unknown> {
  return {framesEnabled: false, lifecycleState: lifecycle, platform: web ? 'web' : DESKTOP_PLATFORM, hint: web ? WEB_HINT : DESKTOP_HINT}
}
