import {centre, rect, type Rect} from '../geometry.js'
import type {Monitor} from '../state.js'
import {captionNode, node, textNode, type UiNode} from '../ui-node.js'
import type {BuildContext} from './context.js'

export const SHELL_BODY: Rect = rect(0, 0, 400, 720)
const MONITOR_LIST: Rect = rect(0, 120, 400, 576)
const ROW_HEIGHT = 64

export function monitorsPage(ctx: BuildContext, instance: number, offstage: boolean): UiNode {
  const {state, on} = ctx
  const monitors = state.monitors
  const maxOffset = Math.max(0, monitors.length * ROW_HEIGHT - MONITOR_LIST.height)
  const offset = Math.min(state.scroll.monitorsList, maxOffset)
  return node(`monitors#${instance}`, 'Scaffold', SHELL_BODY, {route: '/monitors', opaque: true, offstage}, [
    textNode('title', 'Monitors', rect(16, 16, 200, 40), {semantics: {label: 'Monitors', header: true}}),
    node('export', 'OutlinedButton', rect(232, 16, 88, 40), {semantics: {label: 'Export', button: true, enabled: false}}, [
      captionNode('label', 'Export', rect(248, 24, 56, 24)),
    ]),
    node('refresh', 'IconButton', rect(352, 36, 0, 0), {
      semantics: {label: 'Refresh', button: true, tap: true, enabled: true},
      onTap: () => on.refreshMonitors(),
    }),
    alertsTile(ctx),
    node(
      'list',
      'ListView',
      MONITOR_LIST,
      {scroll: {id: 'monitorsList', offset, maxOffset}},
      monitors.map((monitor, index) => monitorRow(ctx, monitor, MONITOR_LIST.top + index * ROW_HEIGHT - offset)),
    ),
    textNode('count', `${monitors.length} monitors`, rect(16, 696, 200, 24)),
    node(
      'newMonitor',
      'FloatingActionButton',
      rect(240, 624, 144, 56),
      {semantics: {label: 'New monitor', button: true, tap: true, enabled: true}, onTap: () => on.newMonitor(), hoverKey: FAB_TOOLTIP_REGION},
      [captionNode('label', 'New monitor', rect(264, 640, 104, 24))],
    ),
    ...(state.hovered === FAB_TOOLTIP_REGION ? [fabTooltip()] : []),
  ])
}

const FAB_TOOLTIP_REGION = 'newMonitor'

/** The FAB's Tooltip, shown below it while a mouse hovers over it. */
function fabTooltip(): UiNode {
  return textNode('tooltip', 'Create a monitor', rect(248, 688, 128, 24), {overlay: true})
}

/** A MergeSemantics row: the label Text and the Switch fold into one node whose centre is on the label. */
function alertsTile(ctx: BuildContext): UiNode {
  return node('alerts', 'MergeSemantics', rect(16, 64, 368, 48), {mergesDescendants: true, semantics: {}}, [
    textNode('label', 'Alerts enabled', rect(32, 76, 200, 24)),
    node('switch', 'Switch', rect(316, 68, 52, 40), {
      semantics: {toggled: ctx.state.alertsEnabled, tap: true, enabled: true},
      onTap: () => ctx.on.toggleAlerts(),
    }),
  ])
}

/**
 * A row is a DragTarget for the other rows; its name is a Draggable carrying the monitor id, an
 * InkWell that opens the detail page, toggles the ★ favourite mark on a double tap and opens the
 * row menu on a right click.
 */
function monitorRow(ctx: BuildContext, monitor: Monitor, top: number): UiNode {
  const {on} = ctx
  const action = monitor.paused ? 'Resume' : 'Pause'
  const label = monitor.favourite ? `${monitor.name} ★` : monitor.name
  const nameRect = rect(16, top + 8, 264, 48)
  return node(`row-${monitor.id}`, 'MonitorRow', rect(0, top, 400, ROW_HEIGHT), {key: `monitor-${monitor.id}`, onAccept: dragged => on.reorderMonitor(dragged, monitor.id)}, [
    node(
      'open',
      'InkWell',
      nameRect,
      {
        semantics: {label, button: true, tap: true, enabled: true},
        onTap: () => on.openMonitor(monitor),
        onDoubleTap: () => on.toggleFavourite(monitor),
        onSecondaryTap: () => on.openRowMenu(monitor, centre(nameRect)),
        dragData: monitor.id,
      },
      [captionNode('name', label, rect(28, top + 20, 200, 24))],
    ),
    // Pause and Resume are two different widgets: toggling swaps one element for another.
    node(
      action.toLowerCase(),
      'TextButton',
      rect(296, top + 12, 88, 40),
      {semantics: {label: action, button: true, tap: true, enabled: true}, onTap: () => on.togglePause(monitor)},
      [captionNode('label', action, rect(308, top + 20, 64, 24))],
    ),
  ])
}
