import type {Rect} from '../geometry.js'
import {captionNode, node, textNode, type UiNode} from '../ui-node.js'
import {placer} from './context.js'

/** Colors.grey (#9e9e9e) on white: a WCAG contrast ratio of 2.68, under AA's 4.5 and 3. */
const FAINT_TEXT = '#9e9e9e'

/**
 * A page with real accessibility faults, as an app might ship them: an IconButton with no
 * tooltip (no label), a 32x32 IconButton (its tap target shrunk below 48x48), a hint in light
 * grey on white, and a Save button that passes every rule.
 */
export function accessibilityPage(instance: number, area: Rect): UiNode {
  const at = placer(area)
  const wide = area.width - 32
  const noop = (): void => undefined
  return node(`accessibility#${instance}`, 'Scaffold', area, {route: '/accessibility', opaque: true, color: '#ffffff'}, [
    textNode('title', 'Accessibility check', at(16, 16, wide, 40), {semantics: {label: 'Accessibility check', header: true}}),
    node('share', 'IconButton', at(16, 72, 48, 48), {semantics: {button: true, tap: true, enabled: true}, onTap: noop}, [
      node('icon', 'Icon', at(28, 84, 24, 24)),
    ]),
    node('close', 'IconButton', at(88, 80, 32, 32), {semantics: {label: 'Close', button: true, tap: true, enabled: true}, onTap: noop}, [
      node('icon', 'Icon', at(92, 84, 24, 24)),
    ]),
    textNode('hint', 'Last checked 5 minutes ago', at(16, 136, wide, 24), {color: FAINT_TEXT}),
    node('save', 'FilledButton', at(16, 184, wide, 48), {semantics: {label: 'Save', button: true, tap: true, enabled: true}, onTap: noop}, [
      captionNode('label', 'Save', at(area.width / 2 - 16, 196, 32, 24)),
    ]),
  ])
}
