import {VIEWPORT, rect} from '../geometry.js'
import {captionNode, node, textNode, type UiNode} from '../ui-node.js'
import type {BuildContext} from './context.js'
import {textField} from './text-field.js'

const SIGN_IN_ERROR = 'Enter your email and password'

export function loginPage(ctx: BuildContext, instance: number): UiNode {
  const {state, on} = ctx
  const children: UiNode[] = [
    textNode('title', 'Sign in', rect(24, 80, 352, 40), {semantics: {label: 'Sign in', header: true}}),
    textField(ctx, 'email', 'Email', rect(24, 160, 352, 56)),
    textField(ctx, 'password', 'Password', rect(24, 232, 352, 56), true),
  ]
  if (state.signInError) children.push(textNode('error', SIGN_IN_ERROR, rect(24, 304, 352, 24)))
  children.push(
    node(
      'signIn',
      'ElevatedButton',
      rect(24, 344, 352, 48),
      {key: 'signIn', semantics: {label: 'Sign in', button: true, tap: true, enabled: true}, onTap: () => on.signIn()},
      [captionNode('label', 'Sign in', rect(168, 356, 64, 24))],
    ),
    node(
      'forgot',
      'TextButton',
      rect(120, 408, 160, 40),
      {semantics: {label: 'Forgot password?', link: true, tap: true, enabled: true}, onTap: () => on.requestPasswordReset()},
      [captionNode('label', 'Forgot password?', rect(132, 416, 136, 24))],
    ),
  )
  if (state.resetLinkSent) children.push(textNode('resetSent', 'Reset link sent', rect(24, 464, 352, 24)))
  return node(`login#${instance}`, 'Scaffold', VIEWPORT, {route: '/login', opaque: true}, children)
}
