import type {AppState, Popup} from './state.js'

export type SheetPopup = Extract<Popup, {kind: 'newMonitor'}>

/** The sheet's AnimationController runs for this many frames (one per vsync) before it completes. */
export const SHEET_ENTRANCE_FRAMES = 8

/**
 * Which frame of its entrance the sheet is on: 0 for the first frame drawn after the route was
 * pushed (a Ticker's first tick reports zero elapsed time), then one more per frame drawn.
 * Negative before that first frame.
 */
export function entranceFrame(state: AppState, sheet: SheetPopup): number {
  return state.clock - sheet.openedAt - 1
}

/**
 * How far below its resting place the sheet is painted on the current frame: a SlideTransition
 * driven by a cubic ease-out, `height × (1 − t)³` with `t = frame / SHEET_ENTRANCE_FRAMES`.
 * Computed on whole numbers, so a sheet whose height divides by 2 lands on exact half pixels.
 */
export function entranceOffset(state: AppState, sheet: SheetPopup, height: number): number {
  const frame = Math.min(Math.max(entranceFrame(state, sheet), 0), SHEET_ENTRANCE_FRAMES)
  const remaining = SHEET_ENTRANCE_FRAMES - frame
  return (height * remaining * remaining * remaining) / SHEET_ENTRANCE_FRAMES ** 3
}

/** A sheet that has not drawn its last entrance frame yet keeps its Ticker running. */
export function tickerRunning(state: AppState): boolean {
  return state.popups.some((p) => p.kind === 'newMonitor' && entranceFrame(state, p) < SHEET_ENTRANCE_FRAMES)
}
