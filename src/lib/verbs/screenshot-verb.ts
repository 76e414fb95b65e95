import {resolve} from 'node:path'
import {capturePage, type Clip} from '../cdp/capture.js'
import {withPage, type ChromeEndpoint} from '../cdp/page.js'
import {TapirError, UsageError} from '../errors.js'
import {writeAtomic} from '../write-atomic.js'
import {toExtensionParams} from './input.js'
import type {Input, Result, Verb, VerbContext} from './types.js'
import {EXIT} from '../output/exit-codes.js'

function formatFor(input: Input): string {
  if (typeof input.format === 'string') return input.format
  return typeof input.output === 'string' && /\.png$/i.test(input.output) ? 'png' : 'jpeg'
}

export const screenshot: Verb = {
  name: 'screenshot',
  tool: 'tapir_screenshot',
  dispatch: 'ext.tapir.screenshot',
  summary: 'Capture the app, or one widget by ref, as a JPEG or PNG; the CLI writes it to --output.',
  example: '--output=./shot.png --ref=e42',
  annotations: {readOnly: true},
  params: [
    {name: 'format', type: 'string', default: 'jpeg', defaultInApp: true, options: ['jpeg', 'png'], description: 'Image format (the CLI takes it from the --output extension when not given).'},
    {name: 'quality', type: 'integer', default: 70, minimum: 0, maximum: 100, description: 'JPEG quality, 0 to 100 (ignored for PNG).'},
    {name: 'ref', type: 'string', description: 'Capture only this widget (eN or qN); the whole viewport when omitted.'},
    {name: 'rect', type: 'string', description: 'Sub-rect "x,y,w,h" in logical pixels, relative to the ref\'s top-left; needs --ref.'},
    {
      name: 'output',
      type: 'string',
      required: true,
      cliOnly: true,
      local: true,
      description: 'File to write the image to.',
      missing: 'Missing --output=<path>. Example: tapir:screenshot --output=./shot.jpg --format=jpeg',
    },
  ],
  validate(input) {
    if (input.rect !== undefined && !input.ref) throw new UsageError('--rect is relative to a widget, so it needs --ref. Omit both to capture the whole viewport.')
    if (typeof input.rect === 'string' && !/^\s*-?\d+(\.\d+)?(\s*,\s*-?\d+(\.\d+)?){3}\s*$/.test(input.rect)) {
      throw new UsageError(`--rect takes "x,y,w,h" in logical pixels (got "${input.rect}").`)
    }
  },
  async execute(context, input): Promise<Result> {
    // The CLI (which writes --output) captures a web app through Chrome: rasterising in the
    // isolate can hang under CanvasKit. MCP always asks the app.
    const chrome = typeof input.output === 'string' ? context.chrome() : undefined
    if (chrome) return captureThroughChrome(context, chrome, input)
    const params = toExtensionParams(screenshot, {...input, format: formatFor(input)})
    const result = await (await context.app()).callExtension('screenshot', params)
    if (typeof input.output !== 'string') return result
    if (typeof result.base64 !== 'string') throw new TapirError(`The app returned no image: ${JSON.stringify(result).slice(0, 200)}`, EXIT.appError)
    const bytes = Buffer.from(result.base64, 'base64')
    const path = resolve(context.cwd, input.output)
    writeAtomic(path, bytes)
    return {path, bytes: bytes.length, format: result.format, width: result.width, height: result.height}
  },
  report: (result) => ({stdout: `✓ Wrote ${result.bytes} bytes (${((result.bytes as number) / 1024).toFixed(1)} KB, ${result.format}) to ${result.path}`}),
}

/** The widget's rect from the app (geometry only, nothing rasterised), clipped out of a CDP capture. */
async function captureThroughChrome(context: VerbContext, chrome: ChromeEndpoint, input: Input): Promise<Result> {
  const format = formatFor(input) === 'png' ? 'png' : 'jpeg'
  let clip: Clip | undefined
  if (typeof input.ref === 'string') {
    const params = toExtensionParams(screenshot, {ref: input.ref, rect: input.rect})
    const geometry = await (await context.app()).callExtension('screenshot', {...params, geometry: 'true'})
    const rect = geometry.rect as Partial<Clip> | undefined
    if (!rect || ![rect.x, rect.y, rect.width, rect.height].every((n) => typeof n === 'number')) {
      throw new TapirError(`Cannot clip to ref "${input.ref}": the extension returned no rect for it. Re-run tapir:snap and use a ref from that snapshot.`, EXIT.failed)
    }
    clip = rect as Clip
  }
  const bytes = await withPage(chrome, (page) => capturePage(page, {format, quality: input.quality as number | undefined, clip}))
  const path = resolve(context.cwd, input.output as string)
  writeAtomic(path, bytes)
  return {path, bytes: bytes.length, format, via: 'cdp', ...(clip ? {width: clip.width, height: clip.height} : {})}
}
