import {TapirError} from '../errors.js'
import type {JsonObject} from '../shape.js'

/**
 * The `ext.tapir.*` calls that wait inside the app, and how to wait the same in slices. DWDS in
 * WebSocket mode gives up on any extension call after 10 s (docs/dwds-and-vm.md), so there a wait
 * longer than a slice is asked for as a series of shorter calls up to the caller's deadline.
 */

/** Under DWDS's 10 s, with room for the trip to the page and back. */
export const SLICE_MS = 8000

/** One call of a sliced wait: the method, its params without the wait, the param that holds it. */
export interface WaitCall {
  ext: string
  params: Record<string, string>
  param: string
  /** The answer says the condition has not held yet. */
  pending(answer: JsonObject): boolean
  /** An error the app reports instead of such an answer (wait_for_network_idle's timeout). */
  pendingError?(error: unknown): boolean
}

export interface SlicedWait {
  totalMs: number
  first: WaitCall
  /** The call that goes on waiting once the first slice came back pending. */
  next: WaitCall
  /** The answer the caller gets, from the first and the last slice and the time waited. */
  finish(first: JsonObject, last: JsonObject, waitedMs: number): JsonObject
}

const ms = (value: string | undefined, fallback: number): number => {
  const parsed = Number(value ?? fallback)
  return Number.isFinite(parsed) ? parsed : fallback
}

const without = (params: Record<string, string>, ...names: string[]) =>
  Object.fromEntries(Object.entries(params).filter(([name]) => !names.includes(name)))

const notMatched = (answer: JsonObject) => answer.matched === false

/** How a verb that waits in the app is asked for in slices: a verb's `slices` fact, from the
 *  extension it calls and the params it sends; undefined when this call does not wait. */
export type Slicer = (ext: string, params: Record<string, string>) => SlicedWait | undefined

/** wait_for answers `matched: false` when its time is up; the elapsed time counts every slice.
 *  `defaultMs`: the wait when `timeoutMs` is not sent (the verb's default). */
export function waitForSlices(defaultMs: number): Slicer {
  return (ext, params) => {
    const call: WaitCall = {ext, params: without(params, 'timeoutMs'), param: 'timeoutMs', pending: notMatched}
    return {
      totalMs: ms(params.timeoutMs, defaultMs),
      first: call,
      next: call,
      finish: (_first, last, waitedMs) => ({
        ...last,
        ...(typeof last.elapsedMs === 'number' ? {elapsedMs: waitedMs} : {}),
        ...(typeof last.waitedMs === 'number' ? {waitedMs} : {}),
      }),
    }
  }
}

/** wait_for_network_idle reports its timeout as a `timeout` error envelope. A slice must hold the
 *  whole idle window, so a window too long for one is not sliced. */
export function networkIdleSlices(defaults: {timeoutMs: number; idleMs: number}): Slicer {
  return (ext, params) => {
    if (ms(params.idleMs, defaults.idleMs) > SLICE_MS / 2) return undefined
    const call: WaitCall = {
      ext,
      params: without(params, 'timeoutMs'),
      param: 'timeoutMs',
      pending: () => false,
      pendingError: (error) => error instanceof TapirError && error.envelopeType === 'timeout',
    }
    return {
      totalMs: ms(params.timeoutMs, defaults.timeoutMs),
      first: call,
      next: call,
      finish: (_first, last, waitedMs) => ({...last, ...(typeof last.idleAchievedMs === 'number' ? {idleAchievedMs: waitedMs} : {})}),
    }
  }
}

/** tap --until taps once; what is left of the wait goes on as wait_for of the same text. */
export function tapUntilSlices(defaultUntilMs: number): Slicer {
  return (ext, params) => {
    const until = params.until
    if (until === undefined) return undefined
    return {
      totalMs: ms(params.untilTimeoutMs, defaultUntilMs),
      first: {
        ext,
        params: without(params, 'untilTimeoutMs'),
        param: 'untilTimeoutMs',
        pending: (answer) => answer.untilMatched === false,
      },
      next: {ext: 'wait_for', params: {text: until}, param: 'timeoutMs', pending: notMatched},
      finish: (first, last) => (last === first ? first : {...first, untilMatched: last.matched === true}),
    }
  }
}
