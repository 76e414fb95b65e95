import {TapirError} from '../errors.js'

/** An MCP content block: text, or an image (base64 data and its MIME type). */
export type ToolContent = {type: 'text'; text: string} | {type: 'image'; data: string; mimeType: string}

const MIME_BY_MAGIC: ReadonlyArray<{mimeType: string; magic: readonly number[]}> = [
  {mimeType: 'image/png', magic: [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]},
  {mimeType: 'image/jpeg', magic: [0xff, 0xd8, 0xff]},
]

/** The image's MIME type, read from its first bytes: a client shows the image by it, so it is
 *  what the bytes are, not what the answer's `format` claims. */
function mimeTypeOf(base64: string): string | undefined {
  if (!/^[A-Za-z0-9+/]+={0,2}$/.test(base64) || base64.length % 4 !== 0) return undefined
  const head = Buffer.from(base64.slice(0, 16), 'base64')
  return MIME_BY_MAGIC.find(({magic}) => magic.every((byte, i) => head[i] === byte))?.mimeType
}

/** An answer that holds an image under `key`: the image as an MCP image block, and every other
 *  field as JSON text beside it, so a model sees the picture and reads the rest in a few bytes. */
export function imageContent(answer: Record<string, unknown>, key: string): ToolContent[] {
  const {[key]: image, ...rest} = answer
  if (typeof image !== 'string') return [{type: 'text', text: JSON.stringify(answer)}]
  const mimeType = mimeTypeOf(image)
  if (!mimeType) throw new TapirError(`The app's screenshot is not a PNG or JPEG image in base64, so there is no image to show.`, 'app')
  return [
    {type: 'text', text: JSON.stringify(rest)},
    {type: 'image', data: image, mimeType},
  ]
}
