import type {ChromeEndpoint} from '../cdp/page.js'
import {TapirError} from '../errors.js'
import type {BrowserControl} from './browser.js'
import {chromeControl} from './chrome-control.js'

export type {BrowserControl, Point} from './browser.js'

/** No browser: nothing to bring forward or size; pointer input by offset has no channel. */
export const NO_BROWSER: BrowserControl = {
  bringToFront: async () => {},
  setViewport: async () => {},
  release: async () => {},
  wheel: async () => {
    throw new TapirError('wheel is sent through Chrome DevTools, and this session has no Chrome (no cdpPort).', 'local')
  },
  drag: async () => {
    throw new TapirError(
      (words) =>
        `drag by dx/dy is sent through Chrome DevTools input, and this session has no Chrome (no cdpPort); the app drags only from ref to ref (${words.call('drag')}).`,
      'local',
    )
  },
}

/** The browser control of a session: none without a cdpPort. Each DevTools call has `callMs`. */
export function browserFor(chrome: ChromeEndpoint | undefined, callMs: number): BrowserControl {
  return chrome ? chromeControl(chrome, callMs) : NO_BROWSER
}
