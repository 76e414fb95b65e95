import {isAncestorOrSelf, type Frame, type Mounted, type SemNode} from './frame.js'

/** Every semantics node below the root, in tree order. */
export function semanticsInOrder(frame: Frame): SemNode[] {
  const out: SemNode[] = []
  const visit = (sem: SemNode): void => {
    out.push(sem)
    sem.children.forEach(visit)
  }
  frame.semRoot.children.forEach(visit)
  return out
}

/**
 * The nodes tapir lists: merged descendants are folded into their boundary, and the inner
 * RenderEditable textbox of a field collapses into the outer one.
 */
export function exposedNodes(frame: Frame, scope?: Mounted): SemNode[] {
  return semanticsInOrder(frame).filter(
    (sem) => !sem.mergedIntoParent && !isInnerTextbox(sem) && (scope === undefined || isAncestorOrSelf(scope, sem.owner)),
  )
}

/** A textbox whose render object lies inside an enclosing textbox node's render object. */
export function isInnerTextbox(sem: SemNode): boolean {
  if (!sem.data.textField) return false
  for (let above = sem.parent; above !== null; above = above.parent) {
    if (above.data.textField && above.owner.path !== sem.owner.path && isAncestorOrSelf(above.owner, sem.owner)) return true
  }
  return false
}

export function nodesLabelled(frame: Frame, label: string, scope?: Mounted): SemNode[] {
  return exposedNodes(frame, scope).filter((sem) => sem.data.label === label)
}

export function descendantsOf(sem: SemNode): SemNode[] {
  return sem.children.flatMap((child) => [child, ...descendantsOf(child)])
}

/** The name of the route a widget sits on. */
export function routeNameOf(m: Mounted): string | null {
  return m.route?.ui.route ?? null
}
