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
