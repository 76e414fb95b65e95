import type {AppModel} from './app-model.js'
import type {Frame} from './frame.js'

const POLL_INTERVAL_MS = 200

/** A `Text` widget with exactly this data is on stage (the element walk skips Offstage subtrees). */
export function hasText(frame: Frame, data: string): boolean {
  for (const m of frame.byPath.values()) if (!m.offstage && m.ui.text === data) return true
  return false
}

/** Polls every 200 ms until the text is there (or gone, with `present` false), up to the timeout. */
export async function waitForText(app: AppModel, data: string, timeoutMs: number, present = true): Promise<boolean> {
  const deadline = app.now() + timeoutMs
  for (;;) {
    app.pump()
    if (hasText(app.frame, data) === present) return true
    const remaining = deadline - app.now()
    if (remaining <= 0) return false
    await new Promise((resolve) => setTimeout(resolve, Math.min(POLL_INTERVAL_MS, remaining)))
  }
}
