import type {AppModel} from './app-model.js'
import {isAncestorOrSelf, type Mounted} from './frame.js'
import {bounds, centre, overlapArea} from './geometry.js'
import {hitTest, reaches} from './hit-test.js'
import type {FieldKey} from './ui-node.js'

export type MatchKind = 'overlap' | 'nearest' | 'element'

/** The field a text verb writes: the ref's own editable, else the one overlapping its rect most, else the nearest. */
export interface TextTarget {
  readonly field: FieldKey
  /** The TextField around the RenderEditable. */
  readonly widget: Mounted
  readonly matchKind: MatchKind
}

export function textTargetFor(app: AppModel, target: Mounted, viaElement: boolean): TextTarget | null {
  const editables = [...app.frame.byPath.values()].filter((m) => m.ui.editable !== undefined && !m.offstage)
  const toTarget = (editable: Mounted, matchKind: MatchKind): TextTarget => ({
    field: editable.ui.editable!,
    widget: editable.parent ?? editable,
    matchKind,
  })
  const own = editables.find((e) => isAncestorOrSelf(target, e))
  if (own !== undefined && (viaElement || target.ui.editable !== undefined)) return toTarget(own, 'element')
  // A field on a covered route (under a dialog) ranks after every reachable one.
  const reachable = (e: Mounted): number => (reaches(hitTest(app.frame, centre(e.ui.rect)), e) ? 0 : 1)
  const overlap = (e: Mounted): number => overlapArea((e.parent ?? e).ui.rect, target.ui.rect)
  const overlapping = editables.filter((e) => overlap(e) > 0).sort((a, b) => reachable(a) - reachable(b) || overlap(b) - overlap(a))
  if (overlapping[0] !== undefined) return toTarget(overlapping[0], 'overlap')
  const from = centre(target.ui.rect)
  const distance = (e: Mounted): number => Math.hypot(centre(e.ui.rect).x - from.x, centre(e.ui.rect).y - from.y)
  const nearest = [...editables].sort((a, b) => reachable(a) - reachable(b) || distance(a) - distance(b))[0]
  return nearest === undefined ? null : toTarget(nearest, 'nearest')
}

/** The `text` effect block: what the controller holds after the settle, and which field was written. */
export function textEffect(app: AppModel, target: TextTarget, requested: string): Record<string, unknown> {
  const value = app.state.fields[target.field]
  return {
    kind: 'text',
    verified: value === requested,
    value,
    target: {
      matchKind: target.matchKind,
      label: app.frame.semByOwner.get(target.widget.path)?.data.label ?? '',
      rect: bounds(target.widget.ui.rect),
    },
  }
}
