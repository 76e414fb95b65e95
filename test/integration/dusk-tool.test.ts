import {afterAll, beforeAll, describe, expect, it} from 'vitest'
import {TapirError} from '../../src/lib/errors.js'
import {SessionContext} from '../../src/lib/runtime/session-context.js'
import {runDuskTool} from '../../src/lib/verbs/dusk/dusk-tool.js'
import {simSession, type SimSession} from '../helpers/sim.js'

/** The ext.* calls the sim received since `from`, less the isolate id. */
function calls(s: SimSession, from: number) {
  return s.sim.requests
    .slice(from)
    .filter((request) => request.method.startsWith('ext.'))
    .map(({method, params}) => {
      const {isolateId: _isolateId, ...rest} = params
      return {method, params: rest}
    })
}

function contextOf(s: SimSession): SessionContext {
  return new SessionContext({stateFlag: s.state, env: {}, cwd: s.dir, timeoutMs: 10_000})
}

async function traced(s: SimSession, context: SessionContext, tool: string, args: Record<string, string | number | boolean | string[]>) {
  const from = s.sim.requests.length
  const run = await runDuskTool(tool, args, context)
  return {...run, calls: calls(s, from)}
}

describe('runDuskTool: the dusk_* tools through the shared verb layer', () => {
  describe('against an app on Dusk 0.0.1', () => {
    let s: SimSession
    let context: SessionContext
    beforeAll(async () => {
      s = await simSession({package: 'dusk'})
      context = contextOf(s)
    })
    afterAll(async () => {
      context.close()
      expect(s.sim.requests.filter((request) => request.method.startsWith('ext.tapir.'))).toEqual([])
      expect(s.sim.violations).toEqual([])
      await s.close()
    })

    it('dusk_tap, dusk_press_key (modifiers), dusk_evaluate and dusk_drag reach ext.dusk.* with string params', async () => {
      expect(await traced(s, context, 'dusk_snap', {depth: 4})).toMatchObject({
        result: {snapshot: expect.stringContaining('[ref=e4]')},
        calls: [{method: 'ext.dusk.snap', params: {depth: '4'}}],
      })
      expect(await traced(s, context, 'dusk_tap', {ref: 'e4'})).toMatchObject({
        result: {ref: 'e4'},
        isError: false,
        calls: [{method: 'ext.dusk.tap', params: {ref: 'e4'}}],
      })
      expect((await traced(s, context, 'dusk_press_key', {key: 'S', modifiers: ['control', 'shift']})).calls).toEqual([
        {method: 'ext.dusk.press_key', params: {key: 'S', modifiers: 'control,shift'}},
      ])
      expect(await traced(s, context, 'dusk_evaluate', {expression: '2 * 21'})).toMatchObject({
        result: {result: '42'},
        calls: [{method: 'ext.dusk.evaluate', params: {expression: '2 * 21'}}],
      })
      await runDuskTool('dusk_navigate', {route: '/monitors'}, context)
      const snapshot = String((await runDuskTool('dusk_snap', {}, context)).result.snapshot)
      const [api, db] = ['API', 'DB'].map((label) => new RegExp(`button "${label}[^"]*" \\[ref=(e\\d+)\\]`).exec(snapshot)![1]!)
      expect(await traced(s, context, 'dusk_drag', {startRef: api!, endRef: db!})).toMatchObject({
        result: {startRef: api, endRef: db},
        calls: [{method: 'ext.dusk.drag', params: {startRef: api, endRef: db}}],
      })
      expect((await traced(s, context, 'dusk_scroll', {ref: db!, direction: 'down', pixels: 120})).calls).toEqual([
        {method: 'ext.dusk.scroll', params: {ref: db, direction: 'down', pixels: '120'}},
      ])
    })

    it('dusk_wait_for: a timeout is an error result, as 0.0.1 answers it', async () => {
      const run = await traced(s, context, 'dusk_wait_for', {text: 'Nowhere', timeoutMs: 200})
      expect(run).toMatchObject({isError: true, result: {matched: false, reason: expect.stringContaining('timed out')}})
      expect(run.calls).toEqual([{method: 'ext.dusk.wait_for', params: {text: 'Nowhere', timeoutMs: '200'}}])
    })

    it("a gate refusal is the app's error; an unknown tool is refused", async () => {
      await runDuskTool('dusk_navigate', {route: '/monitors'}, context)
      const snapshot = String((await runDuskTool('dusk_snap', {}, context)).result.snapshot)
      const covered = /\[ref=(e\d+)\] \[occluded\]/.exec(snapshot)![1]!
      const refused = await runDuskTool('dusk_tap', {ref: covered}, context).catch((error: unknown) => error)
      expect(refused).toBeInstanceOf(TapirError)
      expect(refused).toMatchObject({kind: 'app', message: expect.stringMatching(/^Widget ref=e\d+ is not actionable: obscured/)})
      await expect(runDuskTool('dusk_fill', {}, context)).rejects.toMatchObject({kind: 'usage'})
    })
  })

  it('against an app on tapir, the tapir verb runs, with no snapshot asked for', async () => {
    const s = await simSession()
    const context = contextOf(s)
    try {
      await runDuskTool('dusk_snap', {}, context)
      const from = s.sim.requests.length
      await runDuskTool('dusk_tap', {ref: 'e4'}, context)
      expect(calls(s, from)).toEqual([{method: 'ext.tapir.tap', params: {ref: 'e4', includeSnapshot: 'false'}}])
    } finally {
      context.close()
      await s.close()
    }
  })
})
