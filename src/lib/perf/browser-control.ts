import {TapirError} from '../errors.js'

/** What perf_run asks of the browser a Chrome session runs in (CDP). */
export interface BrowserControl {
  /** Brings the app's tab to the front, so Chrome draws its frames (a hidden tab draws none). */
  bringToFront(): Promise<void>
  /** Emulates a viewport of this size (CSS pixels). */
  setViewport(size: {width: number; height: number}): Promise<void>
  /** Mouse-wheel ticks over the widget a ref names. */
  wheel(ref: string, delta: {dx: number; dy: number}, ticks: number): Promise<void>
  /** A pointer drag from the widget a ref names, by an offset. */
  drag(ref: string, delta: {dx: number; dy: number}): Promise<void>
}

/** No browser: nothing to bring forward or size; pointer input by offset has no channel. */
export const NO_BROWSER: BrowserControl = {
  bringToFront: async () => {},
  setViewport: async () => {},
  wheel: async () => {
    throw new TapirError('wheel is sent through Chrome DevTools, and this session has no Chrome (no cdpPort).', 'local')
  },
  drag: async () => {
    throw new TapirError('drag by dx/dy is sent through Chrome DevTools input, and this session has no Chrome (no cdpPort); the app drags only from ref to ref (tapir:drag).', 'local')
  },
}

/** A Chrome session while tapir has no DevTools client yet: every call says so. */
export function chromeUnavailable(cdpPort: number): BrowserControl {
  const refuse = async (what: string): Promise<never> => {
    throw new TapirError(`${what} needs Chrome DevTools control (cdpPort ${cdpPort}), which this tapir cannot do yet. Run the scenario on a session without cdpPort, or on another platform.`, 'local')
  }
  return {
    bringToFront: () => refuse('Bringing the tab to the front (Page.bringToFront)'),
    setViewport: () => refuse('Setting the viewport'),
    wheel: () => refuse('wheel'),
    drag: () => refuse('drag by dx/dy'),
  }
}

/** The browser control of a session: none without a cdpPort. */
export function browserFor(cdpPort: number | null | undefined): BrowserControl {
  return typeof cdpPort === 'number' ? chromeUnavailable(cdpPort) : NO_BROWSER
}
