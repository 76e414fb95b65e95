import {resolve} from 'node:path'
import {TapirError} from '../errors.js'
import {checkOutputFile, IMAGE_OUTPUT} from '../output-file.js'
import {nullable, object, string} from '../shape.js'
import {formatFor, writeAppImage} from '../verbs/screenshot-verb.js'
import type {Input, Result, VerbCall} from '../verbs/types.js'
import type {AppConnection} from '../vm/app-connection.js'
import type {Deadline} from '../vm/deadline.js'
import type {DumpNode} from './semantics-dump.js'

// A screenshot of an app with no package, through the widget inspector (flutter/flutter
// widgets/widget_inspector.dart, WidgetInspectorService `initServiceExtensions`, debug builds):
// `getRootWidget` gives the root element an inspector id in an object group, `screenshot` paints
// that element's render object into a PNG of at most `width` x `height` pixels and at most
// `maxPixelRatio` pixels a logical pixel (its `screenshot` method), `disposeGroup` lets the id go.
// The engine's `_flutter.screenshot` (shell/common/shell.cc `OnServiceProtocolScreenshot`) is not
// used: newer engines compile its body out and answer "Could not capture image screenshot.".

const ROOT = 'ext.flutter.inspector.getRootWidget'
const SCREENSHOT = 'ext.flutter.inspector.screenshot'
const DISPOSE = 'ext.flutter.inspector.disposeGroup'
const GROUP = 'tapir-zero-install-screenshot'

const rootAnswer = object({result: object({valueId: string})})
const imageAnswer = object({result: nullable(string)})
const anyObject = object({})

/** A PNG's size from its IHDR chunk (bytes 16-23, big-endian width then height). */
function pngSize(bytes: Buffer): {width: number; height: number} | undefined {
  if (bytes.length < 24 || bytes.toString('latin1', 12, 16) !== 'IHDR') return undefined
  return {width: bytes.readUInt32BE(16), height: bytes.readUInt32BE(20)}
}

export async function screenshotThroughInspector(
  app: AppConnection,
  call: VerbCall,
  input: Input,
  root: () => Promise<DumpNode>,
): Promise<Result> {
  if (typeof input.ref === 'string' || typeof input.rect === 'string')
    throw new TapirError(
      'screenshot of one widget has no zero-install form (the inspector names elements, not semantics nodes): capture the whole app, or run tapir install.',
      'usage',
    )
  const asked = typeof input.format === 'string' || typeof input.output === 'string' ? formatFor(input) : 'png'
  if (asked !== 'png')
    throw new TapirError(
      (words) =>
        `A zero-install screenshot is a PNG (the widget inspector encodes PNG only): ${words.only('give --output=<file>.png or --format=png', 'pass format: "png"')}, or run tapir install.`,
      'usage',
    )
  if (typeof input.output === 'string') checkOutputFile(resolve(call.cwd, input.output), IMAGE_OUTPUT)
  const names = await app.extensionRPCs(call.deadline)
  if (!names.includes(ROOT) || !names.includes(SCREENSHOT))
    throw new TapirError(
      'The app registers no widget inspector (ext.flutter.inspector.screenshot is there in a debug build only): run it in debug mode, or run tapir install.',
      'usage',
    )
  const base64 = await capture(app, call.deadline, await root())
  const bytes = Buffer.from(base64, 'base64')
  const size = pngSize(bytes)
  const result = {format: 'png', ...(size ?? {})}
  if (typeof input.output !== 'string') return {...result, base64}
  return writeAppImage(call.cwd, {format: 'png', output: input.output}, base64, result)
}

/** The root element painted at the view's own size and pixel ratio (read off the semantics
 *  root: its rect is in physical pixels, its child's transform the pixel ratio). */
async function capture(app: AppConnection, deadline: Deadline, tree: DumpNode): Promise<string> {
  const ratio = tree.children[0]?.scale ?? 1
  const {valueId} = (await app.callFlutter(ROOT, {objectGroup: GROUP}, rootAnswer, deadline)).result
  try {
    const params = {id: valueId, width: String(tree.rect.width), height: String(tree.rect.height), maxPixelRatio: String(ratio)}
    const {result} = await app.callFlutter(SCREENSHOT, params, imageAnswer, deadline)
    if (result === null) throw new TapirError('The widget inspector painted no image: the app has no laid-out root to paint yet.', 'app')
    return result
  } finally {
    await app.callFlutter(DISPOSE, {objectGroup: GROUP}, anyObject, deadline).catch(() => undefined)
  }
}
