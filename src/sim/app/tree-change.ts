import {isAncestorOrSelf, type Frame, type SemNode} from './frame.js'
import {semanticsInOrder} from './semantics.js'

/**
 * What tap's `effect.changed` compares before and after: the routes on screen and the semantics
 * of the route the target sits on (geometry aside, so a scroll alone is not a change).
 */
export function routeSignature(frame: Frame, routePath: string): string {
  const routes = [...frame.byPath.values()].filter((m) => m.ui.route !== undefined && !m.offstage).map((m) => m.path)
  const route = frame.byPath.get(routePath)
  if (route === undefined || route.offstage) return [...routes, '(route gone)'].join('\n')
  const nodes = semanticsInOrder(frame).filter((sem) => isAncestorOrSelf(route, sem.owner))
  return [...routes, ...nodes.map(describe)].join('\n')
}

function describe(sem: SemNode): string {
  const {rect: _rect, ...data} = sem.data
  return `${sem.id}${sem.mergedIntoParent ? 'm' : ''} ${JSON.stringify(data)}`
}
