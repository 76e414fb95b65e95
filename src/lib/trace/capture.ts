import {messageOf} from '../errors.js'
import {isJsonObject} from '../shape.js'
import {executeVerb} from '../verbs/execute-verb.js'
import {consoleLogs, exceptions, getRoutes} from '../verbs/read-verbs.js'
import {screenshot} from '../verbs/screenshot-verb.js'
import type {VerbContext} from '../verbs/types.js'
import {Deadline} from '../vm/deadline.js'
import {geometryAnswer} from '../vm/tapir-answers.js'
import {TRACE_BOUNDS, type TraceScreenshot} from './format.js'
import {screenText} from './screen-text.js'

/** What the app shows after a step, each part read through its read verb. */
export interface Seen {
  app?: string
  viewport?: {width: number; height: number; devicePixelRatio?: number}
  snapshot?: string
  route?: string
  /** The screenshot, still on its way: the step's line waits for it, the next step need not. */
  shot?: Promise<{screenshot?: TraceScreenshot; missing?: string}>
  console?: unknown[]
  exceptions?: unknown[]
  missing: string[]
}

/**
 * Reads, side by side, the screen's lines (screen-text.ts: no ref is minted), the route, the
 * console entries and exceptions since `since`, and (when asked) a PNG screenshot (PNG is what
 * Flutter's engine encodes itself: dart:ui's ImageByteFormat has no JPEG, so a JPEG costs the app
 * an encoder of its own). Each is only read: none changes the app or what a later call of the
 * flow answers. A part the app cannot give is named in `missing`; nothing here throws for the
 * app's failure.
 */
export async function captureSeen(
  context: VerbContext,
  since: Date,
  options: {
    screenshot: boolean
    /** Entries read at the step before (keys of entryKey): only the others are the step's. Without
     *  them, the entries are the ones stamped since the step began. */
    seen?: {console: Set<string>; exceptions: Set<string>}
    /** Measure the viewport (for the header). */
    viewport?: boolean
  },
): Promise<Seen> {
  const missing: string[] = []
  const read = async <T>(what: string, work: () => Promise<T>): Promise<T | undefined> => {
    try {
      return await work()
    } catch (error) {
      missing.push(`${what}: ${messageOf(error).split('\n', 1)[0]}`)
      return undefined
    }
  }
  // The screenshot is asked for first, so the app captures the screen the step left even when the
  // next step starts before the image arrives (see Tracer.step).
  const shot = options.screenshot ? screenshotOf(context) : undefined
  const [app, snapped, routes, logs, thrown, viewport] = await Promise.all([
    read('app', async () => {
      const deadline = new Deadline(context.timeoutMs, 0)
      return (await context.app(deadline)).appPackage(deadline)
    }),
    read('snapshot', () => screenText(context)),
    read('route', () => executeVerb(getRoutes, context, {})),
    read('console', () => executeVerb(consoleLogs, context, {limit: TRACE_BOUNDS.consoleEntries})),
    read('exceptions', () =>
      executeVerb(exceptions, context, {...(options.seen ? {} : {since: since.toISOString()}), limit: TRACE_BOUNDS.exceptionEntries}),
    ),
    options.viewport ? read('viewport', () => viewportOf(context)) : undefined,
  ])
  const seen: Seen = {missing}
  if (app) seen.app = app
  if (viewport) seen.viewport = viewport
  if (snapped !== undefined) seen.snapshot = snapped
  const route = [routes?.location, routes?.uri, routes?.title].find((text) => typeof text === 'string' && text !== '')
  if (typeof route === 'string') seen.route = route
  if (logs)
    seen.console = (Array.isArray(logs.logs) ? logs.logs : []).filter(
      (entry) => !isJsonObject(entry) || after(entry.time ?? entry.timestamp, since),
    )
  if (thrown) seen.exceptions = Array.isArray(thrown.exceptions) ? thrown.exceptions : []
  if (shot) seen.shot = shot
  return seen
}

/** A PNG screenshot of the app, or why there is none; never throws. */
async function screenshotOf(context: VerbContext): Promise<{screenshot?: TraceScreenshot; missing?: string}> {
  try {
    const shot = await executeVerb(screenshot, context, {format: 'png'})
    if (typeof shot.base64 !== 'string') return {missing: 'screenshot: the app answered no image'}
    return {
      screenshot: {
        format: typeof shot.format === 'string' ? shot.format : 'jpeg',
        base64: shot.base64,
        ...(typeof shot.width === 'number' ? {width: shot.width} : {}),
        ...(typeof shot.height === 'number' ? {height: shot.height} : {}),
      },
    }
  } catch (error) {
    return {missing: `screenshot: ${messageOf(error).split('\n', 1)[0]}`}
  }
}

/** The viewport in logical pixels, from the screenshot extension's geometry mode (the tapir
 * package's; it rasterises nothing). An app on Dusk has none: undefined. */
async function viewportOf(context: VerbContext): Promise<Seen['viewport']> {
  const deadline = new Deadline(context.timeoutMs, 0)
  const app = await context.app(deadline)
  if ((await app.appPackage(deadline)) !== 'tapir') return undefined
  const {rect, devicePixelRatio} = await app.callExtension('screenshot', {geometry: 'true'}, geometryAnswer, deadline)
  if (!rect) return undefined
  return {width: rect.width, height: rect.height, ...(devicePixelRatio === undefined ? {} : {devicePixelRatio})}
}

/** The entries of a step: those not read at the step before, or without that reading, those
 *  stamped since the step began (the app's clock may differ from this machine's, so the
 *  reading before is the better guide). */
export function newEntries(entries: readonly unknown[], before: Set<string> | undefined, since: Date): unknown[] {
  if (before) return entries.filter((entry) => !before.has(entryKey(entry)))
  return entries.filter((entry) => !isJsonObject(entry) || after(entry.time ?? entry.timestamp, since))
}

export const entryKey = (entry: unknown): string => JSON.stringify(entry)

/** An entry with no readable time is kept: the app may not stamp its logs. */
function after(time: unknown, since: Date): boolean {
  if (typeof time !== 'string') return true
  const at = Date.parse(time)
  return Number.isNaN(at) || at >= since.getTime()
}
