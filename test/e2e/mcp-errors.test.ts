import type {Client} from '@modelcontextprotocol/sdk/client/index.js'
import {afterAll, beforeAll, describe, expect, it} from 'vitest'
import {mcpClient} from '../helpers/mcp.js'
import {signIn, simSession, type SimSession} from '../helpers/sim.js'

type Content = Array<{type: string; text: string}>
const textOf = (result: unknown) => (result as {content: Content}).content[0]!.text
const messageOf = (result: unknown) => textOf(result).split('\n').slice(0, -1).join('\n')
const errorOf = (result: unknown) =>
  (JSON.parse(textOf(result).split('\n').at(-1)!) as {error: {message: string; envelope?: Record<string, unknown>}}).error

describe('errors over MCP keep their fix, in MCP words', () => {
  let s: SimSession
  let client: Client
  beforeAll(async () => {
    s = await simSession()
    await signIn(s)
    client = await mcpClient(s.state)
  })
  afterAll(async () => {
    await client.close()
    await s.close()
  })
  const call = (name: string, args: Record<string, unknown> = {}) => client.callTool({name, arguments: args})
  const snapshot = async (args: Record<string, unknown> = {}) =>
    (JSON.parse(textOf(await call('tapir_snap', args))) as {snapshot: string}).snapshot

  it('a stale handle: call tapir_snap (or tapir_find again) for a fresh ref', async () => {
    await call('tapir_navigate', {route: '/settings'})
    const handle = (JSON.parse(textOf(await call('tapir_find', {text: 'Sync now'}))) as {ref: string}).ref
    await call('tapir_navigate', {route: '/monitors'})
    const stale = await call('tapir_tap', {ref: handle})
    expect(messageOf(stale)).toMatch(/is stale: .*\. Call tapir_snap \(or tapir_find again\) for a fresh ref\.$/)
  })

  it('a ref tapir never saw gets no suggestions by spelling, and the fix is a fresh snapshot', async () => {
    const unknown = await call('tapir_tap', {ref: 'e999'})
    expect(errorOf(unknown).envelope).toMatchObject({type: 'not_found', suggestions: []})
    expect(messageOf(unknown)).toMatch(
      /\(take a snapshot and use a ref from it\)\. tapir never saw e999 in a snapshot: call tapir_snap for fresh refs\.$/,
    )
  })

  it('a ref tapir saw: what it was, and the widgets that are that now', async () => {
    // The settings screen mints refs first, so the monitors' refs are numbered past them.
    await call('tapir_navigate', {route: '/settings'})
    await snapshot()
    await call('tapir_navigate', {route: '/monitors'})
    const before = await snapshot({interactiveOnly: true})
    const pause = [...before.matchAll(/button "Pause" \[ref=(e\d+)\]/g)].at(-1)![1]!
    s.sim.app.restart() // a hot restart: the app forgets every ref, and shows the sign-in screen
    await signIn(s)
    const after = await snapshot({interactiveOnly: true})
    const pausesNow = [...after.matchAll(/button "Pause" \[ref=(e\d+)\]/g)].map((match) => match[1])
    const gone = await call('tapir_tap', {ref: pause})
    expect(messageOf(gone)).toContain('not found in registry')
    expect(messageOf(gone)).toContain(
      `. When tapir saw it, ${pause} was button "Pause". Did you mean: ${pausesNow.slice(0, 5).join(', ')}?`,
    )
    expect(errorOf(gone).envelope).toMatchObject({seen: {role: 'button', label: 'Pause'}, suggestions: pausesNow})
  })

  it("the app's own hints name parameters and tools, not flags and commands", async () => {
    const ambiguous = JSON.parse(textOf(await call('tapir_find', {text: 'Pause'}))) as {diagnostic: string}
    expect(ambiguous.diagnostic).toMatch(/refine with key, text, or contains, or scope with within/)
    await call('tapir_navigate', {route: '/settings'})
    const shown = JSON.parse(textOf(await call('tapir_snap'))) as {renderErrors: {hint: string}}
    expect(shown.renderErrors.hint).toBe('Call tapir_exceptions for full messages + stack traces.')
  })
})
