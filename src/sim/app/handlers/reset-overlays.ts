import type {AppModel} from '../app-model.js'
import type {Mounted} from '../frame.js'
import {centre} from '../geometry.js'
import {pressKey} from '../keyboard.js'
import {tapAt} from '../pointer.js'
import {isVisible} from '../visibility.js'
import type {ExtensionHandler} from './extension-handler.js'

const DISMISS_LABELS: ReadonlySet<string> = new Set(['cancel', 'dismiss', 'close', 'ok', 'done'])

/**
 * Three escalating layers, each only while something is still up: pop every PopupRoute (the
 * page stack untouched), press Escape, then tap a Cancel/Dismiss/Close/OK/Done affordance.
 */
export const resetOverlaysHandler: ExtensionHandler = {
  name: 'reset_overlays',
  cites: 'tapir_reset_overlays',
  wakesFrames: true,
  run(app) {
    const popped = app.state.popups.length
    if (popped > 0) {
      while (app.state.popups.length > 0) app.on.dismissPopup()
      app.pump()
    }
    let escaped = false
    if (overlays(app).length > 0) {
      pressKey(app, 'Escape')
      escaped = true
    }
    let dismissTapped = false
    const affordance = dismissAffordance(app)
    if (affordance !== undefined) {
      tapAt(app, centre(affordance.ui.rect))
      dismissTapped = true
    }
    return {popped, escaped, dismissTapped}
  },
}

/** What is still painted above the page: popup routes and overlay entries (a tooltip, a snack bar). */
function overlays(app: AppModel): Mounted[] {
  const navigator = app.frame.root.children.find((m) => m.ui.widget === 'Navigator')
  const popupRoutes = navigator?.children.slice(1) ?? []
  const entries = [...app.frame.byPath.values()].filter((m) => m.ui.overlay && !m.offstage)
  return [...popupRoutes, ...entries]
}

/** The first visible labelled Cancel/Dismiss/Close/OK/Done control inside what is still up. */
function dismissAffordance(app: AppModel): Mounted | undefined {
  for (const overlay of overlays(app)) {
    const found = [...app.frame.byPath.values()].find((m) => {
      if (!m.path.startsWith(`${overlay.path}/`) || m.offstage || m.ui.onTap === undefined || !isVisible(m)) return false
      const label = app.frame.semByOwner.get(m.path)?.data.label ?? ''
      return DISMISS_LABELS.has(label.trim().toLowerCase())
    })
    if (found !== undefined) return found
  }
  return undefined
}
