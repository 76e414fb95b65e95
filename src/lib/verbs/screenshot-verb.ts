import {resolve, sep} from 'node:path'
import {capturePage, type Clip} from '../cdp/capture.js'
import {imageProblem} from '../cdp/image-check.js'
import {withPage, type ChromeEndpoint} from '../cdp/page.js'
import {ParamError, TapirError} from '../errors.js'
import {checkOutputFile, IMAGE_OUTPUT, writeOutputFile} from '../output-file.js'
import {integer, optional, string} from '../shape.js'
import {answer, appNotes, geometryAnswer, type AppNotes} from '../vm/tapir-answers.js'
import {defineVerb} from './define.js'
import {refused, sent, tapir} from './dusk/facts.js'
import {toExtensionParams} from './input.js'
import {BRIEF} from './params.js'
import type {VerbCall} from './types.js'

/** `screenshot`: the image, base64-encoded. */
export const screenshotAnswer = answer({format: optional(string), base64: string, width: optional(integer), height: optional(integer)})

/** What the verb gives: the app's answer over MCP; on the CLI, the file it wrote (and the app's notes). */
export type Capture = AppNotes & {
  format?: string
  width?: number
  height?: number
  base64?: string
  path?: string
  bytes?: number
  via?: 'cdp'
}

export function formatFor(input: {format?: string; output?: string}): string {
  if (typeof input.format === 'string') return input.format
  return typeof input.output === 'string' && /\.png$/i.test(input.output) ? 'png' : 'jpeg'
}

/** What the app says about the capture beyond the image (frames not produced, render errors,
 *  a relocated ref): a stale frame must never read as a fresh one. */
function notesOf(result: AppNotes): AppNotes {
  const notes: AppNotes = {}
  for (const key of Object.keys(appNotes.fields)) if (result[key] !== undefined) notes[key] = result[key]
  return notes
}

export const screenshot = defineVerb({
  name: 'screenshot',
  tool: 'tapir_screenshot',
  title: 'Take a screenshot',
  dispatch: 'ext.tapir.screenshot',
  summary: 'Capture the app, or one widget by ref, as a JPEG or PNG image.',
  details: 'The CLI writes the image to --output.',
  example: '--output=./shot.png --ref=e4',
  exampleBefore: ['tapir tapir:snap --interactiveOnly'],
  kind: 'read',
  dusk: {
    on: 'driven',
    method: 'screenshot',
    params: {format: sent, quality: sent, ref: refused, rect: refused, output: tapir('the image written to that file')},
    tool: {
      tool: 'dusk_screenshot',
      summary: 'Capture the whole app as a PNG or JPEG image.',
      params: [
        ['format', {default: 'png'}],
        ['quality', {default: 80}],
      ],
      renamed: {base64: 'bytes'},
    },
  },
  step: 'any',
  record: {as: 'nothing'},
  mcpImage: 'base64',
  params: [
    {
      name: 'format',
      type: 'string',
      default: 'jpeg',
      defaultInApp: true,
      options: ['jpeg', 'png'],
      description: 'Image format (the CLI takes it from the --output extension when not given).',
    },
    {name: 'quality', type: 'integer', default: 70, minimum: 0, maximum: 100, description: 'JPEG quality, 0 to 100 (ignored for PNG).'},
    {
      name: 'ref',
      brief: BRIEF.ref,
      type: 'string',
      widgetRef: true,
      description: 'Capture only this widget (eN or qN); the whole viewport when omitted.',
    },
    {
      name: 'rect',
      brief: '"x,y,w,h" in logical pixels within the ref.',
      type: 'string',
      description: 'Sub-rect "x,y,w,h" in logical pixels, relative to the ref\'s top-left; needs --ref.',
    },
    {
      name: 'output',
      type: 'string',
      required: true,
      cliOnly: true,
      local: true,
      description:
        'File to write the image to. An existing file is replaced only if it is an image (a PNG or JPEG); a symbolic link never.',
      missing: 'Missing --output=<path>. Example: tapir:screenshot --output=./shot.jpg --format=jpeg',
    },
  ],
  validate(input) {
    if (input.rect !== undefined && !input.ref)
      throw new ParamError(
        (name) => `${name('rect')} is relative to a widget, so it needs ${name('ref')}. Omit both to capture the whole viewport.`,
      )
    if (typeof input.rect === 'string' && !/^\s*-?\d+(\.\d+)?(\s*,\s*-?\d+(\.\d+)?){3}\s*$/.test(input.rect)) {
      throw new ParamError((name) => `${name('rect')} takes "x,y,w,h" in logical pixels (got "${input.rect}").`)
    }
  },
  asksApp: (input, call) => typeof input.output !== 'string' || call.chrome() === undefined,
  async execute(call, input): Promise<Capture> {
    if (typeof input.output === 'string') checkOutputFile(outputPath(call.cwd, input.output), IMAGE_OUTPUT)
    // The CLI (which writes --output) captures a web app through Chrome: rasterising in the
    // isolate can hang under CanvasKit. MCP always asks the app.
    const chrome = typeof input.output === 'string' ? call.chrome() : undefined
    if (chrome && typeof input.output === 'string') return captureThroughChrome(call, chrome, {...input, output: input.output})
    const params = toExtensionParams(screenshot.params, {...input, format: formatFor(input)})
    const result = await (await call.app()).callExtension('screenshot', params, screenshotAnswer, call.deadline)
    if (typeof input.output !== 'string') return result
    return writeAppImage(call.cwd, {...input, output: input.output}, result.base64, result)
  },
  report: ({bytes = 0, format, path}) => ({
    stdout: `✓ Wrote ${bytes} bytes (${(bytes / 1024).toFixed(1)} KB, ${format}) to ${path}`,
  }),
})

/** The output path from the caller's folder; a trailing slash is kept, since it names a folder. */
const outputPath = (cwd: string, output: string): string => resolve(cwd, output) + (/[/\\]$/.test(output) ? sep : '')

/** Writes the image the app sent (base64) to --output, once it proves to be the format asked for. */
export function writeAppImage(
  cwd: string,
  input: {format?: string; output: string},
  base64: string,
  result: AppNotes & {format?: string; width?: number; height?: number},
): Capture {
  const bytes = Buffer.from(base64, 'base64')
  const asked = formatFor(input) === 'png' ? 'png' : 'jpeg'
  const problem = imageProblem(bytes, asked)
  if (problem)
    throw new TapirError(
      `The app's screenshot is not a ${asked === 'png' ? 'PNG' : 'JPEG'} image (${problem}); nothing was written.`,
      'app',
    )
  const path = outputPath(cwd, input.output)
  writeOutputFile(path, bytes, IMAGE_OUTPUT)
  return {path, bytes: bytes.length, format: result.format, width: result.width, height: result.height, ...notesOf(result)}
}

type CaptureInput = {ref?: string; rect?: string; format?: string; quality?: number; output: string}

/** The widget's rect from the app (geometry only, nothing rasterised), clipped out of a CDP capture. */
async function captureThroughChrome(call: VerbCall, chrome: ChromeEndpoint, input: CaptureInput): Promise<Capture> {
  const format = formatFor(input) === 'png' ? 'png' : 'jpeg'
  let clip: Clip | undefined
  if (typeof input.ref === 'string') {
    const params = toExtensionParams(screenshot.params, {ref: input.ref, rect: input.rect})
    const {rect} = await (await call.app()).callExtension('screenshot', {...params, geometry: 'true'}, geometryAnswer, call.deadline)
    if (!rect)
      throw new TapirError(
        (words) =>
          `Cannot clip to ref "${input.ref}": the extension returned no rect for it. ${words.only('Re-run', 'Call')} ${words.call('snap')} and use a ref from that snapshot.`,
        'local',
      )
    clip = {x: rect.x, y: rect.y, width: rect.width, height: rect.height}
  }
  const bytes = await withPage(chrome, (page) => capturePage(page, {format, quality: input.quality, clip}), call.deadline)
  const path = outputPath(call.cwd, input.output)
  writeOutputFile(path, bytes, IMAGE_OUTPUT)
  return {path, bytes: bytes.length, format, via: 'cdp', ...(clip ? {width: clip.width, height: clip.height} : {})}
}
