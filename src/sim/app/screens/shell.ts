import {VIEWPORT, rect} from '../geometry.js'
import type {Shell} from '../state.js'
import {captionNode, node, type UiNode} from '../ui-node.js'
import type {BuildContext} from './context.js'
import {monitorDetailPage} from './monitor-detail.js'
import {SHELL_BODY, monitorsPage} from './monitors.js'
import {settingsPage} from './settings.js'

/** A StatefulShellRoute: a bottom navigation bar over one nested navigator per branch, the inactive one offstage. */
export function shellPage(ctx: BuildContext, shell: Shell): UiNode {
  const onMonitors = shell.branch === 'monitors'
  const monitor = shell.detail && ctx.state.monitors.find(m => m.id === shell.detail!.monitorId)
  const monitorsStack = [monitorsPage(ctx, shell.monitorsPage, Boolean(monitor))]
  if (monitor) monitorsStack.push(monitorDetailPage(ctx, monitor, shell.detail!.instance))
  return node(`shell#${shell.instance}`, 'Scaffold', VIEWPORT, {route: 'shell', opaque: true}, [
    node('monitorsBranch', 'Navigator', SHELL_BODY, {offstage: !onMonitors}, monitorsStack),
    node('settingsBranch', 'Navigator', SHELL_BODY, {offstage: onMonitors}, [settingsPage(ctx, shell.settingsPage, false)]),
    node('navBar', 'NavigationBar', rect(0, 720, 400, 80), {opaque: true}, [
      destination('monitorsTab', 'Monitors', 0, () => ctx.on.showBranch('monitors')),
      destination('settingsTab', 'Settings', 200, () => ctx.on.showBranch('settings')),
    ]),
  ])
}

function destination(id: string, label: string, left: number, onTap: () => void): UiNode {
  return node(id, 'NavigationDestination', rect(left, 720, 200, 80), {semantics: {label, button: true, tap: true, enabled: true}, onTap}, [
    captionNode('label', label, rect(left + 60, 760, 80, 24)),
  ])
}
