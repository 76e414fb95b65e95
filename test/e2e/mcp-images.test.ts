import type {Client} from '@modelcontextprotocol/sdk/client/index.js'
import {afterAll, beforeAll, describe, expect, it} from 'vitest'
import {mcpClient} from '../helpers/mcp.js'
import {simSession, type SimSession} from '../helpers/sim.js'

type Block = {type: string; text?: string; data?: string; mimeType?: string}
const blocksOf = (result: unknown) => (result as {content: Block[]}).content

/** The one image block and the JSON of the one text block beside it. */
function imageAnswer(result: unknown): {image: Block; fields: Record<string, unknown>} {
  const blocks = blocksOf(result)
  expect(blocks.map((block) => block.type).sort()).toEqual(['image', 'text'])
  const image = blocks.find((block) => block.type === 'image')!
  const fields = JSON.parse(blocks.find((block) => block.type === 'text')!.text!) as Record<string, unknown>
  return {image, fields}
}

const head = (base64: string, n: number) => Buffer.from(base64, 'base64').subarray(0, n)

describe('images over MCP arrive as image content blocks, the other fields as a short text block', () => {
  let s: SimSession
  let tapirClient: Client
  let duskClient: Client
  beforeAll(async () => {
    s = await simSession({flutterTool: true})
    tapirClient = await mcpClient(s.state)
    duskClient = await mcpClient(s.state, ['--catalogue=dusk'])
  })
  afterAll(async () => {
    await tapirClient.close()
    await duskClient.close()
    await s.close()
  })

  it('tapir_screenshot: a JPEG image block, and format, width and height as text with no base64 in it', async () => {
    const result = await tapirClient.callTool({name: 'tapir_screenshot', arguments: {}})
    expect(result.isError).toBeFalsy()
    const {image, fields} = imageAnswer(result)
    expect(image.mimeType).toBe('image/jpeg')
    expect([...head(image.data!, 3)]).toEqual([0xff, 0xd8, 0xff])
    expect(fields).toMatchObject({format: 'jpeg', width: expect.any(Number), height: expect.any(Number)})
    expect(fields).not.toHaveProperty('base64')
    expect(Buffer.byteLength(JSON.stringify(fields))).toBeLessThan(300)
  })

  it('tapir_screenshot with format png: image/png', async () => {
    const {image, fields} = imageAnswer(await tapirClient.callTool({name: 'tapir_screenshot', arguments: {format: 'png'}}))
    expect(image.mimeType).toBe('image/png')
    expect(head(image.data!, 4).subarray(1).toString()).toBe('PNG')
    expect(fields.format).toBe('png')
  })

  it('tapir_hot_reload_and_snap: the screenshot as an image block, the snapshot and the rest as text', async () => {
    const result = await tapirClient.callTool({name: 'tapir_hot_reload_and_snap', arguments: {}})
    expect(result.isError, JSON.stringify(result).slice(0, 500)).toBeFalsy()
    const {image, fields} = imageAnswer(result)
    expect(image.mimeType).toBe('image/jpeg')
    expect(fields).toMatchObject({reloaded: true, snapshot: expect.stringContaining('[ref=e'), recentExceptions: expect.any(Array)})
    expect(fields).not.toHaveProperty('screenshot')
  })

  it("dusk_screenshot: 0.0.1's PNG default as an image block, format as text", async () => {
    const {image, fields} = imageAnswer(await duskClient.callTool({name: 'dusk_screenshot', arguments: {}}))
    expect(image.mimeType).toBe('image/png')
    expect(fields.format).toBe('png')
    expect(fields).not.toHaveProperty('bytes')
  })
})
