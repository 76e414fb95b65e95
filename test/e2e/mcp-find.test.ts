import type {Client} from '@modelcontextprotocol/sdk/client/index.js'
import {afterAll, beforeAll, describe, expect, it} from 'vitest'
import {mcpClient} from '../helpers/mcp.js'
import {simSession, type SimSession} from '../helpers/sim.js'

type Content = Array<{type: string; text: string}>
const textOf = (result: unknown) => (result as {content: Content}).content[0]!.text
const bounds = {x: expect.any(Number), y: expect.any(Number), w: expect.any(Number), h: expect.any(Number)}

describe('tapir_find says what it found', () => {
  let s: SimSession
  let client: Client
  beforeAll(async () => {
    s = await simSession()
    client = await mcpClient(s.state)
  })
  afterAll(async () => {
    await client.close()
    await s.close()
  })
  const find = async (args: Record<string, unknown>) =>
    JSON.parse(textOf(await client.callTool({name: 'tapir_find', arguments: args}))) as Record<string, unknown>

  it('an ambiguous find: the role, label and bounds of its pick and of the others, and the parameters that pick one', async () => {
    const answer = await find({text: 'Sign in'})
    expect(answer).toMatchObject({ref: expect.stringMatching(/^q\d+$/), matched: true, matchCount: 2, pickWith: ['key', 'within']})
    expect(answer.picked).toEqual({role: expect.any(String), label: 'Sign in', bounds})
    const others = answer.others as Array<Record<string, unknown>>
    expect(others.length).toBeGreaterThanOrEqual(1)
    expect(others.length).toBeLessThanOrEqual(5)
    for (const other of others)
      expect(other).toEqual({ref: expect.stringMatching(/^q\d+$/), role: expect.any(String), label: 'Sign in', bounds})
    expect(others.map((other) => other.bounds)).not.toContainEqual(answer.picked && (answer.picked as {bounds: unknown}).bounds)
  })

  it('a find that matches nothing: the nearest widgets, the same but for case, and a label that contains it', async () => {
    const caseOnly = await find({text: 'sign in'})
    expect(caseOnly).toMatchObject({ref: null, matched: false})
    expect(caseOnly.nearest).toContainEqual({
      ref: expect.stringMatching(/^q\d+$/),
      role: expect.any(String),
      label: 'Sign in',
      bounds,
      why: 'the same but for case',
      ask: {text: 'Sign in'},
    })
    const part = await find({semanticsLabel: 'Passw'})
    expect(part.nearest).toContainEqual(
      expect.objectContaining({label: 'Password', why: 'its label contains it', ask: {contains: 'Passw'}}),
    )
    expect((await find({key: 'nope'})).nearest).toBeUndefined()
  })

  it('a unique find answers as the app did', async () => {
    expect(await find({key: 'email'})).toEqual({ref: expect.stringMatching(/^q\d+$/), matched: true, matchCount: 1})
  })
})
