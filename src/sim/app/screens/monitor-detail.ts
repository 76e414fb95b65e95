import {rect} from '../geometry.js'
import type {Monitor} from '../state.js'
import {captionNode, node, textNode, type UiNode} from '../ui-node.js'
import type {BuildContext} from './context.js'
import {SHELL_BODY} from './monitors.js'

export function monitorDetailPage(ctx: BuildContext, monitor: Monitor, instance: number): UiNode {
  const {on} = ctx
  return node(`detail#${instance}`, 'Scaffold', SHELL_BODY, {route: `/monitors/${monitor.id}`, opaque: true}, [
    node('back', 'BackButton', rect(8, 16, 48, 48), {
      semantics: {label: 'Back', button: true, tap: true, enabled: true},
      onTap: () => on.closeMonitor(),
    }),
    textNode('title', monitor.name, rect(64, 20, 300, 40), {semantics: {label: monitor.name, header: true}}),
    textNode('status', `Status: ${monitor.paused ? 'paused' : 'up'}`, rect(16, 88, 368, 24)),
    node(
      'delete',
      'FilledButton',
      rect(16, 136, 368, 48),
      {semantics: {label: 'Delete', button: true, tap: true, enabled: true}, onTap: () => on.askDelete(monitor)},
      [captionNode('label', 'Delete', rect(176, 148, 48, 24))],
    ),
  ])
}
