import {centre, rect, type Rect} from '../geometry.js'
import type {Monitor} from '../state.js'
import {captionNode, node, textNode, type UiNode} from '../ui-node.js'
import {placer, type BuildContext} from './context.js'

const ROW_HEIGHT = 64

/** The monitors list page, laid out in `area` (the shell's body on a phone, the list pane when wide). */
export function monitorsPage(ctx: BuildContext, instance: number, offstage: boolean, area: Rect): UiNode {
  const {state, on} = ctx
  const monitors = state.monitors
  const at = placer(area)
  const list = at(0, 120, area.width, area.height - 144)
  const maxOffset = Math.max(0, monitors.length * ROW_HEIGHT - list.height)
  const offset = Math.min(state.scroll.monitorsList, maxOffset)
  return node(`monitors#${instance}`, 'Scaffold', area, {route: '/monitors', opaque: true, offstage}, [
    textNode('title', 'Monitors', at(16, 16, 200, 40), {semantics: {label: 'Monitors', header: true}}),
    node('export', 'OutlinedButton', at(area.width - 168, 16, 88, 40), {semantics: {label: 'Export', button: true, enabled: false}}, [
      captionNode('label', 'Export', at(area.width - 152, 24, 56, 24)),
    ]),
    node('refresh', 'IconButton', at(area.width - 48, 36, 0, 0), {
      semantics: {label: 'Refresh', button: true, tap: true, enabled: true},
      onTap: () => on.refreshMonitors(),
    }),
    alertsTile(ctx, area),
    node(
      'list',
      'ListView',
      list,
      {scroll: {id: 'monitorsList', offset, maxOffset}},
      monitors.map((monitor, index) => monitorRow(ctx, monitor, list, list.top + index * ROW_HEIGHT - offset)),
    ),
    textNode('count', `${monitors.length} monitors`, at(16, area.height - 24, 200, 24)),
    node(
      'newMonitor',
      'FloatingActionButton',
      at(area.width - 160, area.height - 96, 144, 56),
      {
        semantics: {label: 'New monitor', button: true, tap: true, enabled: true},
        onTap: () => on.newMonitor(),
        hoverKey: FAB_TOOLTIP_REGION,
      },
      [captionNode('label', 'New monitor', at(area.width - 136, area.height - 80, 104, 24))],
    ),
    ...(state.hovered === FAB_TOOLTIP_REGION ? [fabTooltip(area)] : []),
  ])
}

const FAB_TOOLTIP_REGION = 'newMonitor'

/** The FAB's Tooltip, shown below it while a mouse hovers over it. */
function fabTooltip(area: Rect): UiNode {
  return textNode('tooltip', 'Create a monitor', placer(area)(area.width - 152, area.height - 32, 128, 24), {overlay: true})
}

/** A MergeSemantics row: the label Text and the Switch fold into one node whose centre is on the label. */
function alertsTile(ctx: BuildContext, area: Rect): UiNode {
  const at = placer(area)
  return node('alerts', 'MergeSemantics', at(16, 64, area.width - 32, 48), {mergesDescendants: true, semantics: {}}, [
    textNode('label', 'Alerts enabled', at(32, 76, 200, 24)),
    node('switch', 'Switch', at(area.width - 84, 68, 52, 40), {
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
function monitorRow(ctx: BuildContext, monitor: Monitor, list: Rect, top: number): UiNode {
  const {on} = ctx
  const action = monitor.paused ? 'Resume' : 'Pause'
  const label = monitor.favourite ? `${monitor.name} ★` : monitor.name
  const nameRect = rect(list.left + 16, top + 8, list.width - 136, 48)
  return node(
    `row-${monitor.id}`,
    'MonitorRow',
    rect(list.left, top, list.width, ROW_HEIGHT),
    {key: `monitor-${monitor.id}`, onAccept: (dragged) => on.reorderMonitor(dragged, monitor.id)},
    [
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
        [captionNode('name', label, rect(list.left + 28, top + 20, 200, 24))],
      ),
      // Pause and Resume are two different widgets: toggling swaps one element for another.
      node(
        action.toLowerCase(),
        'TextButton',
        rect(list.left + list.width - 104, top + 12, 88, 40),
        {semantics: {label: action, button: true, tap: true, enabled: true}, onTap: () => on.togglePause(monitor)},
        [captionNode('label', action, rect(list.left + list.width - 92, top + 20, 64, 24))],
      ),
    ],
  )
}
