import {rect, viewRect} from '../geometry.js'
import {captionNode, node, textNode, type UiNode} from '../ui-node.js'
import type {BuildContext} from './context.js'
import {textField} from './text-field.js'

const SIGN_IN_ERROR = 'Enter your email and password'

export function loginPage(ctx: BuildContext, instance: number): UiNode {
  const {state, on} = ctx
  const view = viewRect(ctx.view)
  // A centred column, as wide as the view allows up to a form's width.
  const width = Math.min(view.width - 48, 480)
  const left = (view.width - width) / 2
  const middle = view.width / 2
  const title = ctx.source.signInTitle ?? 'Sign in'
  const children: UiNode[] = [
    textNode('title', title, rect(left, 80, width, 40), {semantics: {label: title, header: true}}),
    textField(ctx, 'email', 'Email', rect(left, 160, width, 56)),
    textField(ctx, 'password', 'Password', rect(left, 232, width, 56), true),
  ]
  if (state.signInError) children.push(textNode('error', SIGN_IN_ERROR, rect(left, 304, width, 24)))
  children.push(
    node(
      'signIn',
      'ElevatedButton',
      rect(left, 344, width, 48),
      {key: 'signIn', semantics: {label: 'Sign in', button: true, tap: true, enabled: true}, onTap: () => on.signIn()},
      [captionNode('label', 'Sign in', rect(middle - 32, 356, 64, 24))],
    ),
    node(
      'forgot',
      'TextButton',
      rect(middle - 80, 408, 160, 40),
      {semantics: {label: 'Forgot password?', link: true, tap: true, enabled: true}, onTap: () => on.requestPasswordReset()},
      [captionNode('label', 'Forgot password?', rect(middle - 68, 416, 136, 24))],
    ),
  )
  if (state.resetLinkSent) children.push(textNode('resetSent', 'Reset link sent', rect(left, 464, width, 24)))
  return node(`login#${instance}`, 'Scaffold', view, {route: '/login', opaque: true}, children)
}
