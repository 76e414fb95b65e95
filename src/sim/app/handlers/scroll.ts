import {postActionSnapshot} from '../action-snapshot.js'
import {tapirError} from '../errors.js'
import type {Params} from '../params.js'
import {resolveForAction} from '../resolve.js'
import {ensureVisible, firstScrollable, scrollableAround, scrollBy, type ScrollMove} from '../scrolling.js'
import type {ExtensionHandler} from './extension-handler.js'

const DEFAULT_PIXELS = 300
const DIRECTIONS: Readonly<Record<string, readonly [number, number]>> = {down: [0, 1], up: [0, -1], right: [1, 0], left: [-1, 0]}

/**
 * Drives the Scrollable at, around or inside `ref` (the first one without it) by a delta clamped
 * to its extents, or brings `ref` into view with `intoView`. No gate. The offset is read back after the settle.
 */
export const scrollHandler: ExtensionHandler = {
  name: 'scroll',
  cites: 'tapir_scroll',
  wakesFrames: true,
  run(app, params) {
    const ref = params.optional('ref')
    const intoView = params.bool('intoView', false)
    if (intoView && ref === undefined)
      throw tapirError('ext.tapir.scroll: intoView brings a widget into view, so it needs "ref"', 'missing_param')
    const delta = intoView ? {dx: 0, dy: 0} : deltaOf(params)
    const target = ref === undefined ? null : resolveForAction(app, params, ref)
    const scroller = target === null ? firstScrollable(app.frame) : scrollableAround(app.frame, target.mounted)
    let move: ScrollMove | null
    if (scroller === null) {
      if (!intoView) {
        const where = ref === undefined ? '' : ` at, around or inside ref ${ref}`
        throw tapirError(`ext.tapir.scroll: no laid-out Scrollable found${where}`, 'not_found', ref)
      }
      move = null
    } else {
      // Every Scrollable in this app is vertical: dx moves none of them.
      move = intoView ? ensureVisible(app, scroller, target!.mounted) : scrollBy(app, scroller, delta.dy)
    }
    const changed = move !== null && move.after !== move.before
    return {
      scrolled: changed,
      finalOffset: move?.after ?? null,
      effect: {kind: 'scrollOffset', changed, before: move?.before ?? null, after: move?.after ?? null},
      ...postActionSnapshot(app, params),
    }
  },
}

/** `dx`/`dy` (either one) win over `direction`/`pixels`. */
function deltaOf(params: Params): {dx: number; dy: number} {
  const dx = number(params, 'dx')
  const dy = number(params, 'dy')
  if (dx !== undefined || dy !== undefined) return {dx: dx ?? 0, dy: dy ?? 0}
  const direction = (params.optional('direction') ?? 'down').toLowerCase()
  const unit = DIRECTIONS[direction]
  if (unit === undefined) throw tapirError(`ext.tapir.scroll: direction must be up, down, left or right, got "${direction}"`, 'unexpected')
  const pixels = number(params, 'pixels') ?? DEFAULT_PIXELS
  return {dx: unit[0] * pixels, dy: unit[1] * pixels}
}

/** Dart's double.tryParse on the param text; anything unparsable is absent. */
function number(params: Params, name: string): number | undefined {
  const raw = params.optional(name)?.trim()
  if (raw === undefined || !/^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/.test(raw)) return undefined
  return Number(raw)
}
