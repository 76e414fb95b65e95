import {hasArea} from '../geometry.js'
import {routeNameOf} from '../semantics.js'
import type {ExtensionHandler} from './extension-handler.js'

/**
 * Every `Text` on stage whose data equals `text` (or contains it with `exact: "false"`), walked in
 * the element tree: each gets a fresh `e<N>` ref bound to the widget, in tree order. No tool
 * dispatches to it; the reference names it as what mints a ref without a node ("a `find_by_text`
 * entry", under tapir_set_checkbox), and perf_run reaches a text target past the first through it.
 */
export const findByTextHandler: ExtensionHandler = {
  name: 'find_by_text',
  cites: 'tapir_set_checkbox',
  wakesFrames: true,
  run(app, params) {
    const text = params.required('text')
    const exact = params.optional('exact') !== 'false'
    const refs: string[] = []
    for (const m of app.frame.byPath.values()) {
      const data = m.ui.text
      if (m.offstage || data === undefined || !hasArea(m.ui.rect)) continue
      if (exact ? data === text : data.includes(text)) refs.push(app.refs.registerElement(m.path, routeNameOf(m)))
    }
    return {refs}
  },
}
