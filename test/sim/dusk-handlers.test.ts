// The Dusk sim's ext.dusk.* handlers, each as fluttersdk/dusk 0.0.1's handler reads and answers
// (lib/src/extensions/: docs/dusk.md cites each; spec/dusk-0.0.1-extensions.json lists them).
import {describe, expect, it} from 'vitest'
import {createMonitorsApp} from '../../src/sim/app/index.js'
import type {SimApp} from '../../src/sim/app-contract.js'
import {callDusk} from '../../src/sim/dusk/handlers.js'
import {failure, refOf, signedInApp, snap} from './app-helpers.js'

/** One ext.dusk.* call, with the params a client sent that 0.0.1 would not read. */
async function dusk(app: SimApp, name: string, params: Record<string, string> = {}) {
  const unread: string[] = []
  const answer = await callDusk(app, name, params, (text) => unread.push(text))
  return {answer, unread}
}

describe('ext.dusk.scroll (ext_scroll.dart aiTestScrollHandler)', () => {
  it('moves only by dy and dx: direction and pixels, which it never reads, scroll nothing', async () => {
    const app = await signedInApp()
    const row = refOf(await snap(app), 'button "Queue"')
    const ignored = await dusk(app, 'scroll', {ref: row, direction: 'down', pixels: '300', includeSnapshot: 'false'})
    expect(ignored.answer).toEqual({scrolled: true, finalOffset: 0})
    expect(ignored.unread).toEqual([
      'ext.dusk.scroll: param "direction" is not one Dusk 0.0.1 reads',
      'ext.dusk.scroll: param "pixels" is not one Dusk 0.0.1 reads',
    ])
    expect((await dusk(app, 'scroll', {ref: row, dy: '300.0', includeSnapshot: 'false'})).answer).toEqual({
      scrolled: true,
      finalOffset: 300,
    })
  })

  it('without a ref scrolls the first Scrollable; dx adds to the same offset; a snapshot unless includeSnapshot is false', async () => {
    const app = await signedInApp()
    expect((await dusk(app, 'scroll', {dy: '100', includeSnapshot: 'false'})).answer).toEqual({scrolled: true, finalOffset: 100})
    expect((await dusk(app, 'scroll', {dx: '-40', includeSnapshot: 'false'})).answer).toEqual({scrolled: true, finalOffset: 60})
    const withSnapshot = (await dusk(app, 'scroll', {dy: '-60'})).answer
    expect(withSnapshot).toMatchObject({scrolled: true, finalOffset: 0, snapshot: expect.stringContaining('[ref=e')})
  })

  it("intoView with a ref brings it into view; on a screen with no Scrollable, 0.0.1's not-found error", async () => {
    const app = await signedInApp()
    const far = refOf(await snap(app), 'button "Queue"')
    const into = (await dusk(app, 'scroll', {ref: far, intoView: 'true', includeSnapshot: 'false'})).answer
    expect(into).toMatchObject({scrolled: true, finalOffset: expect.any(Number)})
    const login = createMonitorsApp()
    const error = await failure(dusk(login, 'scroll', {dy: '10'}))
    expect(error).toMatchObject({message: 'No scrollable found in the widget tree.', envelope: {type: 'not_found'}})
  })
})

describe('ext.dusk.get_routes, navigate, navigate_back (ext_navigation.dart)', () => {
  it('get_routes answers {location, title} and nothing else', async () => {
    const app = await signedInApp()
    expect((await dusk(app, 'get_routes')).answer).toEqual({location: '', title: ''})
  })

  it('navigate answers {navigated, route}; navigate_back {navigatedBack: true}, even with nothing to pop', async () => {
    const app = await signedInApp()
    expect((await dusk(app, 'navigate', {route: '/settings', includeSnapshot: 'false'})).answer).toEqual({
      navigated: true,
      route: '/settings',
    })
    expect((await dusk(app, 'navigate_back', {includeSnapshot: 'false'})).answer).toEqual({navigatedBack: true})
    const back = (await dusk(app, 'navigate_back')).answer
    expect(back).toEqual({navigatedBack: true, snapshot: expect.any(String)})
  })
})

describe('ext.dusk.wait_for (ext_wait_find.dart aiTestWaitForHandler)', () => {
  it('a timeout is the result {matched: false, reason: "timeout"}, not an error', async () => {
    const app = createMonitorsApp()
    expect((await dusk(app, 'wait_for', {text: 'Nowhere', timeoutMs: '200'})).answer).toEqual({matched: false, reason: 'timeout'})
    expect((await dusk(app, 'wait_for', {text: 'Sign in', timeoutMs: '200'})).answer).toMatchObject({
      matched: true,
      elapsedMs: expect.any(Number),
    })
  })

  it('reads text before textGone before expression, and matches an expression as text', async () => {
    const app = createMonitorsApp()
    expect((await dusk(app, 'wait_for', {text: 'Sign in', textGone: 'Sign in', timeoutMs: '200'})).answer.matched).toBe(true)
    expect((await dusk(app, 'wait_for', {expression: 'Sign in', timeoutMs: '200'})).answer.matched).toBe(true)
    const none = await failure(dusk(app, 'wait_for', {timeoutMs: '200'}))
    expect(none.message).toBe('[fluttersdk_dusk] ext.dusk.wait_for: at least one of text, textGone, or expression is required')
  })
})

describe('ext.dusk.find_by_text and find_by_label (ext_wait_find.dart)', () => {
  it('find_by_text: a ref for every Text with that data; exact=false matches a part', async () => {
    const app = createMonitorsApp()
    const exact = (await dusk(app, 'find_by_text', {text: 'Sign in'})).answer.refs as string[]
    expect(exact).toHaveLength(2)
    expect((await dusk(app, 'find_by_text', {text: 'Sign', exact: 'false'})).answer.refs).toHaveLength(2)
    expect((await dusk(app, 'find_by_text', {text: 'Sign'})).answer).toEqual({refs: []})
  })

  it('find_by_label: a ref for every node with that label, narrowed by role; the ref drives a tap', async () => {
    const app = createMonitorsApp()
    const both = (await dusk(app, 'find_by_label', {label: 'Sign in'})).answer.refs as string[]
    expect(both).toHaveLength(2)
    const buttons = (await dusk(app, 'find_by_label', {label: 'Sign in', role: 'button'})).answer.refs as string[]
    expect(buttons).toHaveLength(1)
    expect((await dusk(app, 'find_by_label', {label: 'Email', role: 'textField'})).answer.refs).toHaveLength(1)
    const missing = await failure(dusk(app, 'find_by_label', {}))
    expect(missing.message).toBe('[fluttersdk_dusk] ext.dusk.find_by_label: missing required param "label"')
    await expect(dusk(app, 'tap', {ref: buttons[0]!, includeSnapshot: 'false'})).resolves.toMatchObject({answer: {ref: buttons[0]}})
  })
})
