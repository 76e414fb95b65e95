import {PNG} from 'pngjs'
import {describe, expect, it} from 'vitest'
import {imageContent} from '../../src/lib/mcp/image-content.js'

const png = (() => {
  const image = new PNG({width: 2, height: 2})
  image.data.fill(200)
  return PNG.sync.write(image)
})()

describe('an MCP image block', () => {
  it('is made from a whole PNG, with the other fields as text beside it', () => {
    expect(imageContent({format: 'png', base64: png.toString('base64'), width: 2}, 'base64')).toEqual([
      {type: 'text', text: '{"format":"png","width":2}'},
      {type: 'image', data: png.toString('base64'), mimeType: 'image/png'},
    ])
  })

  it('is refused, saying why, for bytes that only start like an image', () => {
    const refusals: Array<[Buffer | string, string]> = [
      [Buffer.concat([png.subarray(0, 8), Buffer.from('not a png at all')]), 'it is cut short inside its unnamed chunk'],
      [png.subarray(0, png.length - 12), 'it has no end chunk (IEND)'],
      [Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0, 0, 0, 0]), 'it is cut short inside a segment'],
      [Buffer.from('GIF89a'), 'it starts as neither a PNG nor a JPEG'],
      ['not base64!', 'it is not base64'],
    ]
    for (const [bytes, problem] of refusals) {
      const base64 = typeof bytes === 'string' ? bytes : bytes.toString('base64')
      expect(() => imageContent({base64}, 'base64')).toThrow(
        `The app's screenshot is not a PNG or JPEG image in base64 (${problem}), so there is no image to show.`,
      )
    }
  })
})
