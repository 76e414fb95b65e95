import type {SemanticsData} from '../frame.js'
import {exposedNodes, routeNameOf} from '../semantics.js'
import type {ExtensionHandler} from './extension-handler.js'

/** The roles Dusk 0.0.1's `_roleToFlag` knows, each as the semantics flag it tests; any other role filters nothing. */
const ROLE_FLAG: Readonly<Record<string, (data: SemanticsData) => boolean>> = {
  button: (data) => data.button,
  textfield: (data) => data.textField,
  checkbox: (data) => data.checked !== undefined,
  link: (data) => data.link,
  image: (data) => data.image,
}

/**
 * Every semantics node whose label is exactly `label` (and, with `role`, whose flag is set), in tree
 * order: each gets a fresh `e<N>` ref bound to the widget that owns the node. Only Dusk 0.0.1
 * registers this (`ext.dusk.find_by_label`); tapir's package does not.
 */
export const findByLabelHandler: ExtensionHandler = {
  name: 'find_by_label',
  cites: 'fluttersdk/dusk 0.0.1 lib/src/extensions/ext_wait_find.dart aiTestFindByLabelHandler',
  wakesFrames: true,
  run(app, params) {
    const label = params.required('label')
    const hasRole = ROLE_FLAG[params.optional('role')?.toLowerCase() ?? '']
    const refs = exposedNodes(app.frame)
      .filter((sem) => sem.data.label === label && (hasRole === undefined || hasRole(sem.data)))
      .map((sem) => app.refs.registerElement(sem.owner.path, routeNameOf(sem.owner)))
    return {refs}
  },
}
