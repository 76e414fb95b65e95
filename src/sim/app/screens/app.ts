import {VIEWPORT} from '../geometry.js'
import {node, type UiNode} from '../ui-node.js'
import type {BuildContext} from './context.js'
import {loginPage} from './login.js'
import {popupRoute} from './popups.js'
import {shellPage} from './shell.js'

/** The whole widget tree for the current state: the root navigator's page, then its popups. */
export function buildApp(ctx: BuildContext): UiNode {
  const {root, popups} = ctx.state
  const page = root.kind === 'login' ? loginPage(ctx, root.instance) : shellPage(ctx, root.shell)
  return node('app', 'MaterialApp', VIEWPORT, {}, [
    node('navigator', 'Navigator', VIEWPORT, {}, [page, ...popups.map(p => popupRoute(ctx, p))]),
  ])
}
