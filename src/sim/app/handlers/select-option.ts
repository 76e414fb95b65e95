import type {AppModel} from '../app-model.js'
import {tapirError} from '../errors.js'
import type {Mounted} from '../frame.js'
import {resolveForAction} from '../resolve.js'
import type {ExtensionHandler} from './extension-handler.js'

/** Calls the first DropdownButton's onChanged at or below the ref directly (no menu, no gate), then reads what it holds. */
export const selectOptionHandler: ExtensionHandler = {
  name: 'select_option',
  cites: 'tapir_select_option',
  wakesFrames: true,
  run(app, params) {
    const ref = params.required('ref')
    const value = params.present('value')
    const target = resolveForAction(app, params, ref)
    const dropdown = firstDropdown(target.mounted)
    if (dropdown?.ui.onSelect === undefined) {
      throw tapirError(
        `ext.tapir.select_option: no selectable widget found at or below ref ${ref}`,
        'not_found',
        ref,
        dropdownRefs(app).slice(0, 3),
      )
    }
    dropdown.ui.onSelect(value)
    app.pump()
    const held = app.frame.semByOwner.get(dropdown.path)?.data.value ?? ''
    return {selected: true, value, effect: {kind: 'selected', verified: held === value, value: held}}
  },
}

function firstDropdown(m: Mounted): Mounted | null {
  if (m.ui.onSelect !== undefined) return m
  for (const child of m.children) {
    const found = firstDropdown(child)
    if (found !== null) return found
  }
  return null
}

function dropdownRefs(app: AppModel): string[] {
  return app.refs.activeTokens().filter((token) => {
    const owner = app.refs.lookup(token)?.ownerPath
    return owner !== undefined && app.frame.byPath.get(owner)?.ui.onSelect !== undefined
  })
}
