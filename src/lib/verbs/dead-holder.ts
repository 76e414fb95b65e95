import {clearOverrides, overrideViewport} from '../cdp/emulation.js'
import {withPage} from '../cdp/page.js'
import type {Viewport} from '../cdp/presets.js'
import {boolean, number, object, type Shape} from '../shape.js'
import type {VerbCall} from './types.js'

/** What a `tapir:resize --hold` holder holds, as its entry in the holds file keeps it. */
export const viewportShape: Shape<Viewport> = object({width: number, height: number, dpr: number, mobile: boolean, touch: boolean})

/**
 * A `--hold` holder killed outright (SIGKILL) cleared nothing: Chrome may keep its override on
 * the page (docs/viewport-holds.md). The first verb after, on a session with Chrome, finds it on
 * top of the holds file and takes the override off from a session of its own: it sends the same
 * override, then clears it (a session clears only an override it sent). With no holds file this
 * is one failed open; with no Chrome in the session the dead entry is only dropped.
 */
export async function clearDeadHolder(call: VerbCall): Promise<void> {
  await call.holdStack?.(viewportShape).clearDead(async (held) => {
    const chrome = call.chrome()
    if (!chrome) return
    await withPage(
      chrome,
      async (page) => {
        await overrideViewport(page, held)
        await clearOverrides(page)
      },
      call.deadline,
    )
  })
}
