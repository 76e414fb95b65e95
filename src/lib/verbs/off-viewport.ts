import {TapirError, type Words} from '../errors.js'
import {exceptionsAnswer} from '../vm/tapir-answers.js'
import {ExplainedError} from './explained-error.js'
import {outside, type OutsideViewport, type Side} from './off-screen.js'
import type {VerbCall} from './types.js'

/** The gate's refusal, `off-viewport (rect=Rect.fromLTRB(l, t, r, b), viewport=Rect.fromLTRB(...))`. */
const RECTS =
  /rect=Rect\.fromLTRB\((-?[\d.]+), (-?[\d.]+), (-?[\d.]+), (-?[\d.]+)\), viewport=Rect\.fromLTRB\((-?[\d.]+), (-?[\d.]+), (-?[\d.]+), (-?[\d.]+)\)/
/** A RenderFlex overflow as FlutterError reports it: `A RenderFlex overflowed by 116 pixels on the right.` */
const OVERFLOW = /overflowed by ([\d.]+) pixels on the (right|left|top|bottom)/
const SIDE_OF: Readonly<Record<string, Side>> = {right: 'right', left: 'left', top: 'above', bottom: 'below'}
const PAST: Readonly<Record<Side, string>> = {
  right: 'past the right edge',
  left: 'past the left edge',
  above: 'above the top edge',
  below: 'below the bottom edge',
}
const AXIS: Readonly<Record<Side, 'x' | 'y'>> = {right: 'x', left: 'x', above: 'y', below: 'y'}

/** Where a widget lies outside the viewport, in words. */
export function placement(ref: string, where: OutsideViewport): string {
  return `${ref} lies ${where.gapPx} px ${PAST[where.side]} of the viewport (its far edge ${where.farPx} px out)`
}

/** An off-viewport refusal, explained: where the widget lies, why no scroll brings it in, and
 *  whether an overflow the app reported is the cause. */
export class OffViewport extends ExplainedError {
  constructor(
    message: string,
    details: Record<string, unknown>,
    readonly ref: string,
    readonly where: OutsideViewport,
    readonly overflowPx: number | undefined,
  ) {
    super(message, details)
  }

  fix(words: Words): string {
    const {side} = this.where
    // The gate scrolls a widget into view (showOnScreen) before it refuses it as off-viewport.
    const scroll = `The app scrolled what encloses it before refusing, so no Scrollable brings it in along ${AXIS[side]}.`
    const cause =
      this.overflowPx === undefined
        ? `No gesture can reach it until the layout or the viewport changes (${words.call('resize')} on a web app).`
        : `A RenderFlex overflow the app reported (${this.overflowPx} px on the ${side === 'above' ? 'top' : side === 'below' ? 'bottom' : side}) covers that spot: no gesture can reach it until the layout is fixed (${words.call('exceptions')} shows the overflow).`
    return ` ${placement(this.ref, this.where)}. ${scroll} ${cause}`
  }
}

/** The refusal explained, or the error as it was when it is not an off-viewport refusal tapir can read. */
export async function explainOffViewport(error: unknown, call: VerbCall): Promise<unknown> {
  if (!(error instanceof TapirError) || error instanceof ExplainedError || error.envelopeType !== 'off_viewport') return error
  const numbers = RECTS.exec(error.message)?.slice(1).map(Number)
  const envelope = error.details?.envelope
  const ref = typeof envelope === 'object' && envelope !== null && 'widget_path' in envelope ? String(envelope.widget_path) : undefined
  if (!numbers || ref === undefined) return error
  // RECTS has eight groups, each a number.
  const [l = 0, t = 0, r = 0, b = 0, vl = 0, vt = 0, vr = 0, vb = 0] = numbers
  const where = outside({left: l, top: t, right: r, bottom: b}, {left: vl, top: vt, right: vr, bottom: vb})
  if (!where) return error
  const overflowPx = await overflowCovering(call, where)
  const offViewport = {...where, axis: AXIS[where.side], scrollable: false, overflowPx: overflowPx ?? null}
  return new OffViewport(error.message, {...error.details, offViewport}, ref, where, overflowPx)
}

/** The overflow the app reported on that side whose overflowed extent reaches the widget's far
 *  edge (read-only: the app's recent exceptions), if any. */
async function overflowCovering(call: VerbCall, where: OutsideViewport): Promise<number | undefined> {
  try {
    const app = await call.app()
    if ((await app.appPackage(call.deadline)) !== 'tapir') return undefined
    const {exceptions} = await app.callExtension('exceptions', {limit: '20'}, exceptionsAnswer, call.deadline)
    for (const entry of exceptions) {
      const match = entry.type === 'overflow' || /RenderFlex/.test(entry.message ?? '') ? OVERFLOW.exec(entry.message ?? '') : null
      if (match && SIDE_OF[match[2]!] === where.side && Number(match[1]) >= where.farPx) return Number(match[1])
    }
  } catch {
    // the app cannot say: the refusal stands as it is
  }
  return undefined
}
