import {imageProblem, type ImageFormat} from '../cdp/image-check.js'
import {TapirError} from '../errors.js'

/** An MCP content block: text, or an image (base64 data and its MIME type). */
export type ToolContent = {type: 'text'; text: string} | {type: 'image'; data: string; mimeType: string}

const MIME_BY_MAGIC: ReadonlyArray<{format: ImageFormat; mimeType: string; magic: readonly number[]}> = [
  {format: 'png', mimeType: 'image/png', magic: [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]},
  {format: 'jpeg', mimeType: 'image/jpeg', magic: [0xff, 0xd8, 0xff]},
]

/** The image's MIME type, read from its bytes: a client shows the image by it, so it is what the
 *  bytes are, not what the answer's `format` claims, and the bytes must be that image whole (as
 *  `--output` checks a file it writes), not only start like one. */
function mimeTypeOf(base64: string): {mimeType: string} | {problem: string} {
  if (!/^[A-Za-z0-9+/]+={0,2}$/.test(base64) || base64.length % 4 !== 0) return {problem: 'it is not base64'}
  const bytes = Buffer.from(base64, 'base64')
  const kind = MIME_BY_MAGIC.find(({magic}) => magic.every((byte, i) => bytes[i] === byte))
  if (!kind) return {problem: 'it starts as neither a PNG nor a JPEG'}
  const problem = imageProblem(bytes, kind.format)
  return problem === undefined ? {mimeType: kind.mimeType} : {problem}
}

/** An answer that holds an image under `key`: the image as an MCP image block, and every other
 *  field as JSON text beside it, so a model sees the picture and reads the rest in a few bytes. */
export function imageContent(answer: Record<string, unknown>, key: string): ToolContent[] {
  const {[key]: image, ...rest} = answer
  if (typeof image !== 'string') return [{type: 'text', text: JSON.stringify(answer)}]
  const read = mimeTypeOf(image)
  if ('problem' in read)
    throw new TapirError(
      `The app's screenshot is not a PNG or JPEG image in base64 (${read.problem}), so there is no image to show.`,
      'app',
    )
  const {mimeType} = read
  return [
    {type: 'text', text: JSON.stringify(rest)},
    {type: 'image', data: image, mimeType},
  ]
}
