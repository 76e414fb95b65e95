import {WIDE_FROM, rect, viewRect, type Rect} from '../geometry.js'
import type {Shell} from '../state.js'
import {captionNode, node, textNode, type UiNode} from '../ui-node.js'
import {accessibilityPage} from './accessibility.js'
import type {BuildContext} from './context.js'
import {monitorDetailPage} from './monitor-detail.js'
import {monitorsPage} from './monitors.js'
import {settingsPage} from './settings.js'

const NAV_BAR_HEIGHT = 80
const RAIL_WIDTH = 80
const LIST_PANE_WIDTH = 400

/**
 * A StatefulShellRoute, one nested navigator per branch, the inactive one offstage. A narrow view
 * (a phone) has a bottom navigation bar and stacks a monitor's detail page over the list; a wide
 * one has a navigation rail and shows the list and the detail side by side.
 */
export function shellPage(ctx: BuildContext, shell: Shell): UiNode {
  return ctx.view.width >= WIDE_FROM ? wideShell(ctx, shell) : phoneShell(ctx, shell)
}

function openMonitor(ctx: BuildContext, shell: Shell) {
  return shell.detail ? ctx.state.monitors.find((m) => m.id === shell.detail!.monitorId) : undefined
}

function phoneShell(ctx: BuildContext, shell: Shell): UiNode {
  const view = viewRect(ctx.view)
  const body = rect(0, 0, view.width, view.height - NAV_BAR_HEIGHT)
  const onMonitors = shell.branch === 'monitors'
  const monitor = openMonitor(ctx, shell)
  const monitorsStack = [monitorsPage(ctx, shell.monitorsPage, Boolean(monitor), body)]
  if (monitor) monitorsStack.push(monitorDetailPage(ctx, monitor, shell.detail!.instance, body))
  const half = view.width / 2
  const barTop = body.height
  const destination = (id: string, label: string, left: number, onTap: () => void): UiNode =>
    node(
      id,
      'NavigationDestination',
      rect(left, barTop, half, NAV_BAR_HEIGHT),
      {semantics: {label, button: true, tap: true, enabled: true}, onTap},
      [captionNode('label', label, rect(left + half / 2 - 40, barTop + 40, 80, 24))],
    )
  return node(`shell#${shell.instance}`, 'Scaffold', view, {route: 'shell', opaque: true}, [
    node('monitorsBranch', 'Navigator', body, {offstage: !onMonitors}, monitorsStack),
    node('settingsBranch', 'Navigator', body, {offstage: shell.branch !== 'settings'}, [
      settingsPage(ctx, shell.settingsPage, false, body),
    ]),
    ...accessibilityBranch(shell, body),
    node('navBar', 'NavigationBar', rect(0, barTop, view.width, NAV_BAR_HEIGHT), {opaque: true}, [
      destination('monitorsTab', 'Monitors', 0, () => ctx.on.showBranch('monitors')),
      destination('settingsTab', 'Settings', half, () => ctx.on.showBranch('settings')),
    ]),
  ])
}

function wideShell(ctx: BuildContext, shell: Shell): UiNode {
  const view = viewRect(ctx.view)
  const body = rect(RAIL_WIDTH, 0, view.width - RAIL_WIDTH, view.height)
  const listPane = rect(RAIL_WIDTH, 0, LIST_PANE_WIDTH, view.height)
  const detailPane = rect(RAIL_WIDTH + LIST_PANE_WIDTH, 0, view.width - RAIL_WIDTH - LIST_PANE_WIDTH, view.height)
  const onMonitors = shell.branch === 'monitors'
  const monitor = openMonitor(ctx, shell)
  const monitorsPanes = [
    monitorsPage(ctx, shell.monitorsPage, false, listPane),
    monitor ? monitorDetailPage(ctx, monitor, shell.detail!.instance, detailPane) : noSelection(detailPane),
  ]
  const destination = (id: string, label: string, index: number, onTap: () => void): UiNode =>
    node(
      id,
      'NavigationRailDestination',
      rect(0, 16 + index * 72, RAIL_WIDTH, 72),
      {semantics: {label, button: true, tap: true, enabled: true}, onTap},
      [captionNode('label', label, rect(4, 56 + index * 72, RAIL_WIDTH - 8, 24))],
    )
  return node(`shell#${shell.instance}`, 'Scaffold', view, {route: 'shell', opaque: true}, [
    node('navRail', 'NavigationRail', rect(0, 0, RAIL_WIDTH, view.height), {opaque: true}, [
      destination('monitorsTab', 'Monitors', 0, () => ctx.on.showBranch('monitors')),
      destination('settingsTab', 'Settings', 1, () => ctx.on.showBranch('settings')),
    ]),
    node('monitorsBranch', 'Navigator', body, {offstage: !onMonitors}, monitorsPanes),
    node('settingsBranch', 'Navigator', body, {offstage: shell.branch !== 'settings'}, [
      settingsPage(ctx, shell.settingsPage, false, body),
    ]),
    ...accessibilityBranch(shell, body),
  ])
}

/** The /accessibility branch, built only while it is shown, so the other screens' trees stay as they were. */
function accessibilityBranch(shell: Shell, body: Rect): UiNode[] {
  if (shell.branch !== 'accessibility') return []
  return [node('accessibilityBranch', 'Navigator', body, {}, [accessibilityPage(shell.instance, body)])]
}

/** The detail pane before a monitor is chosen. */
function noSelection(pane: Rect): UiNode {
  return node('noSelection', 'Center', pane, {}, [
    textNode('hint', 'Select a monitor to see its details', rect(pane.left + 24, pane.top + 88, Math.max(0, pane.width - 48), 24)),
  ])
}
