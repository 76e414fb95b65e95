import type {ChromeEndpoint} from '../cdp/page.js'
import {TapirError} from '../errors.js'
import {chromeControl} from './chrome-control.js'

export type Point = {x: number; y: number}

/** What perf_run asks of the browser a Chrome session runs in (CDP). */
export interface BrowserControl {
  /** Brings the app's tab to the front, so Chrome draws its frames (a hidden tab draws none). */
  bringToFront(): Promise<void>
  /** Emulates a viewport of this size (CSS pixels). */
  setViewport(size: {width: number; height: number}): Promise<void>
  /** Mouse-wheel ticks at a point of the page (CSS pixels: the centre of the step's target). */
  wheel(at: Point, delta: {dx: number; dy: number}, ticks: number): Promise<void>
  /** A pointer drag from a point of the page, by an offset. */
  drag(from: Point, delta: {dx: number; dy: number}): Promise<void>
  /** Ends what the run kept open (the viewport's DevTools session). */
  release(): Promise<void>
}

/** No browser: nothing to bring forward or size; pointer input by offset has no channel. */
export const NO_BROWSER: BrowserControl = {
  bringToFront: async () => {},
  setViewport: async () => {},
  release: async () => {},
  wheel: async () => {
    throw new TapirError('wheel is sent through Chrome DevTools, and this session has no Chrome (no cdpPort).', 'local')
  },
  drag: async () => {
    throw new TapirError('drag by dx/dy is sent through Chrome DevTools input, and this session has no Chrome (no cdpPort); the app drags only from ref to ref (tapir:drag).', 'local')
  },
}

/** The browser control of a session: none without a cdpPort. */
export function browserFor(chrome: ChromeEndpoint | undefined): BrowserControl {
  return chrome ? chromeControl(chrome) : NO_BROWSER
}
