import {viewRect} from '../geometry.js'
import {node, type UiNode} from '../ui-node.js'
import type {BuildContext} from './context.js'
import {loginPage} from './login.js'
import {popupRoute} from './popups.js'
import {shellPage} from './shell.js'

/** The whole widget tree for the current state: the root navigator's page, then its popups. */
export function buildApp(ctx: BuildContext): UiNode {
  const {root, popups} = ctx.state
  const view = viewRect(ctx.view)
  const page = root.kind === 'login' ? loginPage(ctx, root.instance) : shellPage(ctx, root.shell)
  return node('app', 'MaterialApp', view, {}, [node('navigator', 'Navigator', view, {}, [page, ...popups.map((p) => popupRoute(ctx, p))])])
}
