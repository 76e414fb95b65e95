import {bottom, rect, viewRect, type Point} from '../geometry.js'
import {entranceOffset, type SheetPopup} from '../sheet-entrance.js'
import {REGIONS, type Popup} from '../state.js'
import {captionNode, node, textNode, type UiNode} from '../ui-node.js'
import type {BuildContext} from './context.js'
import {textField} from './text-field.js'

/** A pageless route on the root navigator: a modal barrier that blocks the semantics below it. */
export function popupRoute(ctx: BuildContext, popup: Popup): UiNode {
  switch (popup.kind) {
    case 'deleteMonitor':
      return deleteDialog(ctx, popup.monitorId, popup.instance)
    case 'regionMenu':
      return regionMenu(ctx, popup.instance)
    case 'rowMenu':
      return rowMenu(ctx, popup.monitorId, popup.instance, popup.at)
    case 'renameMonitor':
      return renameDialog(ctx, popup.monitorId, popup.instance)
    case 'newMonitor':
      return newMonitorSheet(ctx, popup)
  }
}

function modal(id: string, widget: string, ctx: BuildContext, content: UiNode): UiNode {
  const view = viewRect(ctx.view)
  return node(id, widget, view, {route: widget, blocksEarlierSiblings: true}, [
    node('barrier', 'ModalBarrier', view, {opaque: true, onTap: () => ctx.on.dismissPopup()}),
    content,
  ])
}

/** An AlertDialog 320 wide, centred across the view. */
const dialogLeft = (ctx: BuildContext): number => (ctx.view.width - 320) / 2

/** One of an AlertDialog's TextButtons, at (x, y). */
function dialogButton(id: string, label: string, x: number, y: number, onTap: () => void): UiNode {
  return node(id, 'TextButton', rect(x, y, 96, 40), {semantics: {label, button: true, tap: true, enabled: true}, onTap}, [
    captionNode('label', label, rect(x + 12, y + 8, 72, 24)),
  ])
}

interface AlertDialog {
  route: string
  top: number
  height: number
  title: string
  /** What stands between the title and the buttons. */
  body: UiNode[]
  /** The button beside Cancel. */
  action: {id: string; label: string; onTap: () => void}
}

/** An AlertDialog route: its title, its body, then Cancel and its own action along the bottom. */
function alertDialog(ctx: BuildContext, dialog: AlertDialog): UiNode {
  const left = dialogLeft(ctx)
  const buttons = dialog.top + dialog.height - 60
  return modal(
    dialog.route,
    'DialogRoute',
    ctx,
    node('dialog', 'AlertDialog', rect(left, dialog.top, 320, dialog.height), {opaque: true}, [
      textNode('title', dialog.title, rect(left + 24, dialog.top + 24, 272, 32)),
      ...dialog.body,
      dialogButton('cancel', 'Cancel', left + 96, buttons, () => ctx.on.dismissPopup()),
      dialogButton(dialog.action.id, dialog.action.label, left + 200, buttons, dialog.action.onTap),
    ]),
  )
}

function deleteDialog(ctx: BuildContext, monitorId: number, instance: number): UiNode {
  return alertDialog(ctx, {
    route: `dialog#${instance}`,
    top: 300,
    height: 200,
    title: 'Delete monitor?',
    body: [],
    action: {id: 'confirm', label: 'Delete', onTap: () => ctx.on.deleteMonitor(monitorId)},
  })
}

function regionMenu(ctx: BuildContext, instance: number): UiNode {
  const top = 200
  const width = ctx.view.width - 32
  return modal(
    `menu#${instance}`,
    'DropdownRoute',
    ctx,
    node(
      'menu',
      'DropdownMenu',
      rect(16, top, width, REGIONS.length * 48),
      {opaque: true},
      REGIONS.map((region, i) =>
        node(
          `item-${region}`,
          'DropdownMenuItem',
          rect(16, top + i * 48, width, 48),
          {
            semantics: {label: region, button: true, tap: true, enabled: true},
            onTap: () => ctx.on.chooseRegion(region),
          },
          [captionNode('label', region, rect(28, top + i * 48 + 12, 200, 24))],
        ),
      ),
    ),
  )
}

const MENU_WIDTH = 200
const MENU_ITEM_HEIGHT = 48
const MENU_MARGIN = 8

/** showMenu at the pointer, kept inside the view: Rename and Duplicate for one monitor. */
function rowMenu(ctx: BuildContext, monitorId: number, instance: number, at: Point): UiNode {
  const items: ReadonlyArray<readonly [string, string, () => void]> = [
    ['rename', 'Rename', () => ctx.on.startRename(monitorId)],
    ['duplicate', 'Duplicate', () => ctx.on.duplicateMonitor(monitorId)],
  ]
  const height = items.length * MENU_ITEM_HEIGHT
  const view = viewRect(ctx.view)
  const left = Math.min(at.x, view.width - MENU_WIDTH - MENU_MARGIN)
  const top = Math.min(at.y, bottom(view) - height - MENU_MARGIN)
  return modal(
    `rowMenu#${instance}`,
    'PopupMenuRoute',
    ctx,
    node(
      'menu',
      'PopupMenu',
      rect(left, top, MENU_WIDTH, height),
      {opaque: true},
      items.map(([id, label, onTap], i) =>
        node(
          id,
          'PopupMenuItem',
          rect(left, top + i * MENU_ITEM_HEIGHT, MENU_WIDTH, MENU_ITEM_HEIGHT),
          {
            semantics: {label, button: true, tap: true, enabled: true},
            onTap,
          },
          [captionNode('label', label, rect(left + 16, top + i * MENU_ITEM_HEIGHT + 12, MENU_WIDTH - 32, 24))],
        ),
      ),
    ),
  )
}

/** An AlertDialog with the monitor's name in an autofocused field; Enter in it saves like Save. */
function renameDialog(ctx: BuildContext, monitorId: number, instance: number): UiNode {
  return alertDialog(ctx, {
    route: `rename#${instance}`,
    top: 280,
    height: 240,
    title: 'Rename monitor',
    body: [textField(ctx, 'rename', 'Name', rect(dialogLeft(ctx) + 24, 352, 272, 56))],
    action: {id: 'save', label: 'Save', onTap: () => ctx.on.saveRename(monitorId)},
  })
}

const SHEET_HEIGHT = 256

/**
 * showModalBottomSheet from the FAB: a header row (Cancel, the title, Create) over a Name field.
 * The sheet rests against the bottom of the view and enters from below it, so on every frame of
 * its entrance each child sits `entranceOffset` lower than where it comes to rest.
 */
function newMonitorSheet(ctx: BuildContext, sheet: SheetPopup): UiNode {
  const view = viewRect(ctx.view)
  const top = bottom(view) - SHEET_HEIGHT + entranceOffset(ctx.state, sheet, SHEET_HEIGHT)
  const button = (id: string, widget: string, label: string, left: number, onTap: () => void): UiNode =>
    node(id, widget, rect(left, top + 16, 88, 40), {semantics: {label, button: true, tap: true, enabled: true}, onTap}, [
      captionNode('label', label, rect(left + 12, top + 24, 64, 24)),
    ])
  const children = [
    button('cancel', 'TextButton', 'Cancel', 8, () => ctx.on.dismissPopup()),
    textNode('title', 'New monitor', rect((view.width - 192) / 2, top + 24, 192, 24), {semantics: {label: 'New monitor', header: true}}),
    button('create', 'FilledButton', 'Create', view.width - 96, () => ctx.on.createMonitor(sheet)),
    textField(ctx, 'monitorName', 'Name', rect(24, top + 72, view.width - 48, 56)),
  ]
  if (sheet.invalid) children.push(textNode('error', 'Enter a name', rect(36, top + 132, view.width - 72, 20)))
  return modal(
    `sheet#${sheet.instance}`,
    'ModalBottomSheetRoute',
    ctx,
    node('sheet', 'BottomSheet', rect(0, top, view.width, SHEET_HEIGHT), {opaque: true}, children),
  )
}
