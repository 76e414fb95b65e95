import {VIEWPORT, rect} from '../geometry.js'
import {REGIONS, type Popup} from '../state.js'
import {captionNode, node, textNode, type UiNode} from '../ui-node.js'
import type {BuildContext} from './context.js'

/** A pageless route on the root navigator: a modal barrier that blocks the semantics below it. */
export function popupRoute(ctx: BuildContext, popup: Popup): UiNode {
  return popup.kind === 'deleteMonitor' ? deleteDialog(ctx, popup.monitorId, popup.instance) : regionMenu(ctx, popup.instance)
}

function modal(id: string, widget: string, ctx: BuildContext, content: UiNode): UiNode {
  return node(id, widget, VIEWPORT, {route: widget, blocksEarlierSiblings: true}, [
    node('barrier', 'ModalBarrier', VIEWPORT, {opaque: true, onTap: () => ctx.on.dismissPopup()}),
    content,
  ])
}

function deleteDialog(ctx: BuildContext, monitorId: number, instance: number): UiNode {
  const button = (id: string, label: string, left: number, onTap: () => void): UiNode =>
    node(id, 'TextButton', rect(left, 440, 96, 40), {semantics: {label, button: true, tap: true, enabled: true}, onTap}, [
      captionNode('label', label, rect(left + 12, 448, 72, 24)),
    ])
  return modal(
    `dialog#${instance}`,
    'DialogRoute',
    ctx,
    node('dialog', 'AlertDialog', rect(40, 300, 320, 200), {opaque: true}, [
      textNode('title', 'Delete monitor?', rect(64, 324, 272, 32)),
      button('cancel', 'Cancel', 136, () => ctx.on.dismissPopup()),
      button('confirm', 'Delete', 240, () => ctx.on.deleteMonitor(monitorId)),
    ]),
  )
}

function regionMenu(ctx: BuildContext, instance: number): UiNode {
  const top = 200
  return modal(
    `menu#${instance}`,
    'DropdownRoute',
    ctx,
    node(
      'menu',
      'DropdownMenu',
      rect(16, top, 368, REGIONS.length * 48),
      {opaque: true},
      REGIONS.map((region, i) =>
        node(`item-${region}`, 'DropdownMenuItem', rect(16, top + i * 48, 368, 48), {
          semantics: {label: region, button: true, tap: true, enabled: true},
          onTap: () => ctx.on.chooseRegion(region),
        }, [captionNode('label', region, rect(28, top + i * 48 + 12, 200, 24))]),
      ),
    ),
  )
}
