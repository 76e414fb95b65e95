import type {Rect} from '../geometry.js'
import type {Monitor} from '../state.js'
import {captionNode, node, textNode, type UiNode} from '../ui-node.js'
import {placer, type BuildContext} from './context.js'

/** A monitor's page, laid out in `area` (over the list on a phone, beside it when wide). */
export function monitorDetailPage(ctx: BuildContext, monitor: Monitor, instance: number, area: Rect): UiNode {
  const {on} = ctx
  const at = placer(area)
  return node(`detail#${instance}`, 'Scaffold', area, {route: `/monitors/${monitor.id}`, opaque: true}, [
    node('back', 'BackButton', at(8, 16, 48, 48), {
      semantics: {label: 'Back', button: true, tap: true, enabled: true},
      onTap: () => on.closeMonitor(),
    }),
    textNode('title', monitor.name, at(64, 20, area.width - 100, 40), {semantics: {label: monitor.name, header: true}}),
    textNode('status', `Status: ${monitor.paused ? 'paused' : 'up'}`, at(16, 88, area.width - 32, 24)),
    node(
      'delete',
      'FilledButton',
      at(16, 136, area.width - 32, 48),
      {semantics: {label: 'Delete', button: true, tap: true, enabled: true}, onTap: () => on.askDelete(monitor)},
      [captionNode('label', 'Delete', at(area.width / 2 - 24, 148, 48, 24))],
    ),
  ])
}
