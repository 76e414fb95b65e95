import {describe, expect, it} from 'vitest'
import {createMonitorsApp} from '../../src/sim/app/index.js'
import {refOf, signedInApp, snap} from './app-helpers.js'

/** Everything a session can see of the app's refs, handles and screen: a find's next handle, a
 *  snapshot's refs, the frames drawn. */
async function whatTheSessionSees(app: ReturnType<typeof createMonitorsApp>) {
  const found = await app.call('find', {text: 'Email'})
  return {handle: found.ref, snapshot: await snap(app), frames: app.displayList!().frame}
}

describe('lookup (the recorder read that leaves no trace)', () => {
  it('describes the widget a ref names, with its key, and what a find would match, minting nothing', async () => {
    const app = createMonitorsApp()
    const login = await snap(app)
    const button = await app.call('lookup', {ref: refOf(login, 'button "Sign in"')})
    expect(button).toMatchObject({
      view: {width: 400, height: 800, devicePixelRatio: 2},
      widget: {role: 'button', label: 'Sign in', key: 'signIn', textField: false, obscured: false},
    })
    const byKey = await app.call('lookup', {key: 'signIn'})
    expect(byKey).toMatchObject({matchCount: 1, widget: {id: (button.widget as {id: string}).id}})
    const byLabel = await app.call('lookup', {semanticsLabel: 'Sign in'})
    expect(byLabel.matchCount).toBe(2)
    const password = await app.call('lookup', {ref: refOf(login, 'textbox "Password"')})
    expect(password.widget).toMatchObject({role: 'textbox', key: 'password', textField: true, obscured: true, field: 'password'})
    expect(await app.call('lookup', {ref: 'q7'})).toMatchObject({widget: null, reason: 'not_found'})
    expect((await app.call('find', {key: 'signIn'})).ref).toBe('q1')
  })

  it('leaves the session seeing the same handles, refs and frames as without it', async () => {
    const plain = await signedInApp()
    const looked = await signedInApp()
    const rows = await snap(looked)
    for (const ref of [refOf(rows, 'button "Pause"', 1), refOf(rows, 'button "Export"'), 'q99']) await looked.call('lookup', {ref})
    await looked.call('lookup', {semanticsLabel: 'Pause'})
    await looked.call('lookup', {key: 'signIn'})
    await snap(plain)
    expect(await whatTheSessionSees(looked)).toEqual(await whatTheSessionSees(plain))
  })

  it('looks through a relocated ref without relocating it or taking its report', async () => {
    const outcomes: unknown[] = []
    for (const look of [false, true]) {
      const app = await signedInApp()
      const rows = await snap(app)
      const pause = refOf(rows, 'button "Pause"')
      await app.call('tap', {ref: pause, includeSnapshot: 'false'})
      await app.call('tap', {ref: refOf(await snap(app), 'button "Resume"'), includeSnapshot: 'false'})
      // The node the ref was bound to was replaced by one an action would relocate it to.
      if (look) expect(await app.call('lookup', {ref: pause})).toMatchObject({widget: {role: 'button', label: 'Pause'}})
      // Another row paused: the label count changed, so the ref no longer relocates.
      await app.call('tap', {ref: refOf(rows, 'button "Pause"', 1), includeSnapshot: 'false'})
      outcomes.push(await app.call('tap', {ref: pause, includeSnapshot: 'false'}).catch((error: Error) => error.message))
    }
    expect(outcomes[1]).toEqual(outcomes[0])
    expect(String(outcomes[0])).toMatch(/not actionable|defunct|no longer/)
  })
})
