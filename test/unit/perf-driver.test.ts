import {createServer} from 'node:net'
import {describe, expect, it} from 'vitest'
import {NO_BROWSER, browserFor} from '../../src/lib/perf/browser-control.js'
import {ScenarioDriver} from '../../src/lib/perf/driver.js'
import type {PerfApp} from '../../src/lib/perf/perf-app.js'
import {platformOfDevice} from '../../src/lib/perf/platforms.js'

type Call = [verb: string, params: Record<string, string>]

/** An app that answers from a table of screens: which texts show, what observe lists. */
function fakeApp(screen: {texts: string[]; candidates?: Array<{ref: string; role: string; label: string}>; textRefs?: string[]}) {
  const calls: Call[] = []
  const app = {
    async callExtension(verb: string, params: Record<string, string>) {
      calls.push([verb, params])
      if (verb === 'find') {
        const wanted = params.text ?? params.key ?? params.semanticsLabel
        return screen.texts.includes(wanted!) ? {ref: `q${calls.length}`, matched: true} : {ref: null, matched: false}
      }
      if (verb === 'observe') return {candidates: screen.candidates ?? []}
      if (verb === 'find_by_text') return {refs: screen.textRefs ?? []}
      return {}
    },
  } as unknown as PerfApp
  return {calls, driver: new ScenarioDriver(async () => app, NO_BROWSER, 'sim')}
}

describe('ScenarioDriver', () => {
  it('skips an include whose unless_text shows, and runs one whose text shows', async () => {
    const signedIn = fakeApp({texts: ['Monitors']})
    const login = [{verb: 'tap' as const, target: {by: 'key' as const, key: 'signIn'}}]
    await signedIn.driver.runSetup([
      {verb: 'include', path: 'login.yaml', when: {text: 'Sign in', unlessText: 'Monitors', timeoutMs: 1000}, setup: login},
    ])
    expect(signedIn.calls.map(([verb]) => verb)).toEqual(['find'])
    const signedOut = fakeApp({texts: ['Sign in', 'signIn']})
    await signedOut.driver.runSetup([
      {verb: 'include', path: 'login.yaml', when: {text: 'Sign in', unlessText: 'Monitors', timeoutMs: 1000}, setup: login},
    ])
    expect(signedOut.calls.map(([verb]) => verb)).toEqual(['find', 'find', 'find', 'tap'])
    expect(signedOut.calls.at(-1)![1]).toEqual({ref: 'q3', includeSnapshot: 'false'})
  })

  it('resolves role targets by label and index, text targets past 0 through find_by_text', async () => {
    const {driver} = fakeApp({
      texts: [],
      candidates: [
        {ref: 'q1', role: 'button', label: 'Pause'},
        {ref: 'q2', role: 'button', label: 'Web'},
        {ref: 'q3', role: 'button', label: 'Pause'},
      ],
      textRefs: ['e4', 'e9'],
    })
    expect(await driver.resolve({by: 'role', role: 'button', name: 'Pause', index: 1})).toBe('q3')
    expect(await driver.resolve({by: 'text', text: 'Pause', index: 1})).toBe('e9')
  })

  it('skips a setup gesture whose only leaves this platform out', async () => {
    const {calls, driver} = fakeApp({texts: []})
    await driver.runSetup([
      {verb: 'press_key', key: 'Tab', only: ['chrome']},
      {verb: 'press_key', key: 'Escape'},
    ])
    expect(calls).toEqual([['press_key', {key: 'Escape', includeSnapshot: 'false'}]])
  })
})

describe('browser control and platforms', () => {
  it('does nothing without Chrome; with a cdpPort it goes to Chrome, and says so when Chrome is not there', async () => {
    expect(browserFor(undefined, 5000)).toBe(NO_BROWSER)
    await expect(NO_BROWSER.bringToFront()).resolves.toBeUndefined()
    await expect(NO_BROWSER.wheel({x: 1, y: 1}, {dx: 0, dy: 1}, 1)).rejects.toThrow('no cdpPort')
    // A port nothing listens on: taken, then released.
    const server = createServer()
    const port = await new Promise<number>((resolve) =>
      server.listen(0, '127.0.0.1', () => resolve((server.address() as {port: number}).port)),
    )
    await new Promise((resolve) => server.close(resolve))
    await expect(browserFor({port}, 5000).bringToFront()).rejects.toThrow(`Failed to connect to Chrome CDP on port ${port}`)
    await expect(browserFor({port}, 5000).release()).resolves.toBeUndefined()
  })
  it('reads the platform from the session device', () => {
    expect(platformOfDevice('sim')).toBe('sim')
    expect(platformOfDevice('chrome')).toBe('chrome')
    expect(platformOfDevice('emulator-5554')).toBe('android')
    expect(platformOfDevice('00008030-001A2B3C4D5E6F70')).toBe('ios')
    expect(() => platformOfDevice(undefined)).toThrow('Cannot tell the perf platform from the session')
  })
})
