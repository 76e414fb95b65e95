import {rect, translate, type Rect} from '../geometry.js'
import {captionNode, node, textNode, type UiNode} from '../ui-node.js'
import type {BuildContext} from './context.js'
import {SHELL_BODY} from './monitors.js'
import {textField} from './text-field.js'

const CONTENT_HEIGHT = 1280

export function settingsPage(ctx: BuildContext, instance: number, offstage: boolean): UiNode {
  const {state, on} = ctx
  const {settings} = state
  const maxOffset = CONTENT_HEIGHT - SHELL_BODY.height
  const offset = Math.min(state.scroll.settings, maxOffset)
  const at = (r: Rect): Rect => translate(r, 0, -offset)
  const toggleTile = (id: string, widget: string, label: string, top: number, state: {checked?: boolean; toggled?: boolean}, onTap: () => void): UiNode =>
    node(id, widget, at(rect(16, top, 368, 56)), {semantics: {label, ...state, tap: true, enabled: true}, onTap}, [
      node('label', 'Text', at(rect(72, top + 16, 280, 24)), {text: label, key: `${id}Label`}),
    ])
  return node(`settings#${instance}`, 'Scaffold', SHELL_BODY, {route: '/settings', opaque: true, offstage}, [
    node('scroll', 'SingleChildScrollView', SHELL_BODY, {scroll: {id: 'settings', offset, maxOffset}}, [
      textNode('title', 'Settings', at(rect(16, 16, 368, 40)), {semantics: {label: 'Settings', header: true}}),
      node('notifications', 'Semantics', at(rect(16, 72, 368, 56)), {semantics: {label: 'Notifications'}}, [
        toggleTile('emailAlerts', 'CheckboxListTile', 'Email alerts', 72, {checked: settings.emailAlerts}, () => on.toggleEmailAlerts()),
      ]),
      toggleTile('darkMode', 'SwitchListTile', 'Dark mode', 136, {toggled: settings.darkMode}, () => on.toggleDarkMode()),
      node(
        'region',
        'DropdownButton',
        at(rect(16, 200, 368, 56)),
        {
          key: 'region',
          semantics: {label: 'Region', value: settings.region, button: true, tap: true, enabled: true},
          onTap: () => on.openRegionMenu(),
          onSelect: region => on.changeRegion(region),
        },
        [captionNode('label', 'Region', at(rect(28, 204, 200, 16))), captionNode('value', settings.region, at(rect(28, 224, 200, 24)))],
      ),
      textField(ctx, 'interval', 'Check interval', at(rect(16, 272, 368, 56))),
      textField(ctx, 'nickname', 'Nickname', at(rect(16, 344, 368, 56))),
      syncRow(ctx, at),
      toggleTile('acceptBeta', 'CheckboxListTile', 'Accept beta terms', 1200, {checked: settings.acceptBeta}, () => on.toggleAcceptBeta()),
    ]),
    ...(state.snackBar === null ? [] : [snackBar(ctx, state.snackBar)]),
  ])
}

/** The ScaffoldMessenger's SnackBar: it stays until its Dismiss action is tapped (Escape does not close it). */
function snackBar(ctx: BuildContext, message: string): UiNode {
  return node('snackBar', 'SnackBar', rect(16, 648, 368, 56), {opaque: true, overlay: true}, [
    textNode('message', message, rect(32, 664, 200, 24)),
    node(
      'dismiss',
      'SnackBarAction',
      rect(288, 656, 80, 40),
      {semantics: {label: 'Dismiss', button: true, tap: true, enabled: true}, onTap: () => ctx.on.hideSnackBar()},
      [captionNode('label', 'Dismiss', rect(300, 664, 56, 24))],
    ),
  ])
}

/** A Row too narrow for its children: the button is pushed past the right edge of the view. */
function syncRow(ctx: BuildContext, at: (r: Rect) => Rect): UiNode {
  return node('syncRow', 'Row', at(rect(16, 416, 368, 48)), {overflowing: true}, [
    textNode('lastSync', 'Last synced 2 minutes ago from the primary region', at(rect(16, 428, 380, 24))),
    node(
      'syncNow',
      'TextButton',
      at(rect(404, 420, 96, 40)),
      {semantics: {label: 'Sync now', button: true, tap: true, enabled: true}, onTap: () => ctx.on.syncNow()},
      [captionNode('label', 'Sync now', at(rect(416, 428, 72, 24)))],
    ),
  ])
}
