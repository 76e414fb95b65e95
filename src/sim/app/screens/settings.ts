import {rect, translate, type Rect} from '../geometry.js'
import {captionNode, node, textNode, type UiNode} from '../ui-node.js'
import {placer, type BuildContext} from './context.js'
import {textField} from './text-field.js'

const CONTENT_HEIGHT = 1280

/** The settings page, laid out in `area` (the shell's body). */
export function settingsPage(ctx: BuildContext, instance: number, offstage: boolean, area: Rect): UiNode {
  const {state, on} = ctx
  const {settings} = state
  const maxOffset = Math.max(0, CONTENT_HEIGHT - area.height)
  const wide = area.width - 32
  const offset = Math.min(state.scroll.settings, maxOffset)
  const at = (r: Rect): Rect => translate(r, area.left, area.top - offset)
  const toggleTile = (
    id: string,
    widget: string,
    label: string,
    top: number,
    state: {checked?: boolean; toggled?: boolean},
    onTap: () => void,
  ): UiNode =>
    node(id, widget, at(rect(16, top, wide, 56)), {semantics: {label, ...state, tap: true, enabled: true}, onTap}, [
      node('label', 'Text', at(rect(72, top + 16, area.width - 120, 24)), {text: label, key: `${id}Label`}),
    ])
  return node(`settings#${instance}`, 'Scaffold', area, {route: '/settings', opaque: true, offstage}, [
    node('scroll', 'SingleChildScrollView', area, {scroll: {id: 'settings', offset, maxOffset}}, [
      textNode('title', 'Settings', at(rect(16, 16, wide, 40)), {semantics: {label: 'Settings', header: true}}),
      node('notifications', 'Semantics', at(rect(16, 72, wide, 56)), {semantics: {label: 'Notifications'}}, [
        toggleTile('emailAlerts', 'CheckboxListTile', 'Email alerts', 72, {checked: settings.emailAlerts}, () => on.toggleEmailAlerts()),
      ]),
      toggleTile('darkMode', 'SwitchListTile', 'Dark mode', 136, {toggled: settings.darkMode}, () => on.toggleDarkMode()),
      node(
        'region',
        'DropdownButton',
        at(rect(16, 200, wide, 56)),
        {
          key: 'region',
          semantics: {label: 'Region', value: settings.region, button: true, tap: true, enabled: true},
          onTap: () => on.openRegionMenu(),
          onSelect: (region) => on.changeRegion(region),
        },
        [captionNode('label', 'Region', at(rect(28, 204, 200, 16))), captionNode('value', settings.region, at(rect(28, 224, 200, 24)))],
      ),
      textField(ctx, 'interval', 'Check interval', at(rect(16, 272, wide, 56))),
      textField(ctx, 'nickname', 'Nickname', at(rect(16, 344, wide, 56))),
      syncRow(ctx, at, area.width),
      toggleTile('acceptBeta', 'CheckboxListTile', 'Accept beta terms', 1200, {checked: settings.acceptBeta}, () => on.toggleAcceptBeta()),
    ]),
    ...(state.snackBar === null ? [] : [snackBar(ctx, state.snackBar, area)]),
  ])
}

/** The ScaffoldMessenger's SnackBar: it stays until its Dismiss action is tapped (Escape does not close it). */
function snackBar(ctx: BuildContext, message: string, area: Rect): UiNode {
  const at = placer(area)
  const top = area.height - 72
  return node('snackBar', 'SnackBar', at(16, top, area.width - 32, 56), {opaque: true, overlay: true}, [
    textNode('message', message, at(32, top + 16, 200, 24)),
    node(
      'dismiss',
      'SnackBarAction',
      at(area.width - 112, top + 8, 80, 40),
      {semantics: {label: 'Dismiss', button: true, tap: true, enabled: true}, onTap: () => ctx.on.hideSnackBar()},
      [captionNode('label', 'Dismiss', at(area.width - 100, top + 16, 56, 24))],
    ),
  ])
}

/** A Row too narrow for its children: the button is pushed past the right edge of the view. */
function syncRow(ctx: BuildContext, at: (r: Rect) => Rect, width: number): UiNode {
  return node('syncRow', 'Row', at(rect(16, 416, width - 32, 48)), {overflowing: true}, [
    textNode('lastSync', 'Last synced 2 minutes ago from the primary region', at(rect(16, 428, width - 20, 24))),
    node(
      'syncNow',
      'TextButton',
      at(rect(width + 4, 420, 96, 40)),
      {semantics: {label: 'Sync now', button: true, tap: true, enabled: true}, onTap: () => ctx.on.syncNow()},
      [captionNode('label', 'Sync now', at(rect(width + 16, 428, 72, 24)))],
    ),
  ])
}
