import {postActionSnapshot} from '../action-snapshot.js'
import type {AppModel} from '../app-model.js'
import {editableIn} from '../enrichers.js'
import type {Mounted} from '../frame.js'
import {ensureActionable} from '../gate.js'
import {centre, type Point, type Rect} from '../geometry.js'
import {tapAt} from '../pointer.js'
import {resolveForAction} from '../resolve.js'
import {tapOwnerOf} from '../tap-owner.js'
import {waitForText} from '../text-presence.js'
import {routeSignature} from '../tree-change.js'
import type {ExtensionHandler} from './extension-handler.js'
import {gateOptions} from './gate-params.js'

const DEFAULT_UNTIL_TIMEOUT_MS = 3000

export const tapHandler: ExtensionHandler = {
  name: 'tap',
  cites: 'tapir_tap',
  wakesFrames: true,
  async run(app, params) {
    const ref = params.required('ref')
    const target = resolveForAction(app, params, ref)
    const live = ensureActionable(app, target, ref, gateOptions(params))
    const routePath = (live.route ?? app.frame.root).path
    const before = routeSignature(app.frame, routePath)
    const aim = aimPoint(app, live, params.bool('retarget', true))
    tapAt(app, aim.point)
    requestKeyboard(app, live)
    const payload: Record<string, unknown> = {
      ref,
      effect: {kind: 'treeChanged', changed: routeSignature(app.frame, routePath) !== before},
      ...aim.report,
    }
    const until = params.optional('until')
    if (until !== undefined) payload.untilMatched = await waitForText(app, until, params.int('untilTimeoutMs', DEFAULT_UNTIL_TIMEOUT_MS))
    return {...payload, ...postActionSnapshot(app, params)}
  },
}

/** The live centre, or for a merge boundary the centre of its one control when a tap can reach it there. */
function aimPoint(app: AppModel, live: Mounted, retarget: boolean): {point: Point; report: Record<string, unknown>} {
  const point = centre(live.ui.rect)
  const sem = app.frame.semByOwner.get(live.path)
  const owner = sem === undefined ? null : tapOwnerOf(app.frame, sem)
  if (owner === null || !retarget) return {point, report: {}}
  const ownerRect = ltwh(owner.rect)
  if (!owner.retargets) return {point, report: {tapPointOutsideOwner: {ownerRect, point}}}
  const to = centre(owner.rect)
  return {point: to, report: {retargeted: {from: point, to, ownerRect, ...(owner.centreHandled ? {centreHandled: true} : {})}}}
}

const ltwh = (r: Rect): {left: number; top: number; width: number; height: number} => ({
  left: r.left,
  top: r.top,
  width: r.width,
  height: r.height,
})

/** A tapped text field also gets keyboard focus, wherever the pointer landed. */
function requestKeyboard(app: AppModel, live: Mounted): void {
  if (!app.frame.semByOwner.get(live.path)?.data.textField) return
  const field = editableIn(live)
  if (field === null) return
  app.on.focus(field)
  app.pump()
}
