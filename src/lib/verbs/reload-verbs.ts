import {TapirError} from '../errors.js'
import {anything, list, optional, string} from '../shape.js'
import type {AppConnection} from '../vm/app-connection.js'
import type {Deadline} from '../vm/deadline.js'
import {ReloadRejected} from '../vm/reload-rejected.js'
import {answer, exceptionsAnswer} from '../vm/tapir-answers.js'
import {defineVerb} from './define.js'
import {snap} from './read-verbs.js'
import {screenshotAnswer} from './screenshot-verb.js'

const RECENT_EXCEPTIONS = '5'
const RELOAD_COMPILE_MS = 60_000

/** Dusk 0.0.1's answers to the calls below: `entries`, and the image as `bytes` (or `base64`). */
const duskEntries = answer({entries: list(anything)})
const duskImage = answer({bytes: optional(string), base64: optional(string)})

async function recentExceptions(app: AppConnection, deadline: Deadline): Promise<unknown[]> {
  if ((await app.appPackage(deadline)) === 'dusk')
    return (await app.callDusk('exceptions', {limit: RECENT_EXCEPTIONS}, duskEntries, deadline)).entries
  return (await app.callExtension('exceptions', {limit: RECENT_EXCEPTIONS}, exceptionsAnswer, deadline)).exceptions
}

async function snapshotOf(app: AppConnection, deadline: Deadline): Promise<string> {
  if ((await app.appPackage(deadline)) === 'dusk') return (await app.callDusk('snap', {}, snap.result, deadline)).snapshot
  return (await app.callExtension('snap', {}, snap.result, deadline)).snapshot
}

async function imageOf(app: AppConnection, deadline: Deadline): Promise<string> {
  if ((await app.appPackage(deadline)) !== 'dusk')
    return (await app.callExtension('screenshot', {format: 'jpeg'}, screenshotAnswer, deadline)).base64
  const image = await app.callDusk('screenshot', {format: 'jpeg'}, duskImage, deadline)
  const base64 = image.bytes ?? image.base64
  if (base64 === undefined) throw new TapirError('The app sent a malformed answer to ext.dusk.screenshot: it holds no image.', 'app')
  return base64
}

async function screenshotOf(app: AppConnection, deadline: Deadline): Promise<{screenshot: string} | {screenshotError: string}> {
  try {
    return {screenshot: await imageOf(app, deadline)}
  } catch (error) {
    if (error instanceof TapirError) return {screenshotError: error.message}
    throw error
  }
}

/** The reload's outcome: the screen after it, or the compiler's error. */
type ReloadResult = {reloaded: boolean; durationMs: number; recentExceptions: unknown[]} & (
  {reloaded: true; snapshot: string; screenshot?: string; screenshotError?: string; restarted?: true} | {reloaded: false; error: string}
)

const failedReload = (result: ReloadResult) => !result.reloaded

export const hotReloadAndSnap = defineVerb({
  name: 'hot_reload_and_snap',
  tool: 'tapir_hot_reload_and_snap',
  title: 'Hot reload and snapshot',
  dispatch: 'tapir:hot_reload_and_snap',
  summary: 'Hot reload; return the snapshot, a screenshot and recent exceptions.',
  cliExit: 'exits 1 when the reload failed to compile',
  example: '--no-screenshot',
  kind: 'action',
  dusk: {
    on: 'unchanged',
    note: 'the flutter tool reloads; the snapshot, screenshot and exceptions come from ext.dusk.*',
    tool: {
      tool: 'dusk_hot_reload_and_snap',
      summary: 'Hot reload the app and answer with its snapshot, a screenshot and recent exceptions, or with the compile error.',
      params: ['screenshot'],
    },
  },
  step: 'any',
  record: {as: 'step'},
  mcpImage: 'screenshot',
  // flutter recompiles before it reloads: that is the app's own wait, on top of --timeout.
  waitsMs: () => RELOAD_COMPILE_MS,
  params: [{name: 'screenshot', type: 'boolean', default: true, description: 'Capture a screenshot after the reload.'}],
  async execute(call, input): Promise<ReloadResult> {
    if (!call.reload)
      throw new TapirError(
        (words) => `Hot reload needs a session: ${words.only('run `tapir start --device=<id>` first', 'call tapir_start first')}.`,
        'local',
      )
    const started = Date.now()
    let restarted: boolean
    try {
      // On the web flutter may run the reload as a full restart: the answer says so.
      restarted = (await call.reload('reload', call.deadline)).restarted === true
    } catch (error) {
      if (!(error instanceof ReloadRejected)) throw error
      const durationMs = Date.now() - started
      const exceptions = await recentExceptions(await call.app(), call.deadline).catch(() => [])
      return {reloaded: false, durationMs, error: error.compileMessage, recentExceptions: exceptions}
    }
    const durationMs = Date.now() - started
    const app = await call.app()
    const snapshot = await snapshotOf(app, call.deadline)
    const shot = input.screenshot === false ? {} : await screenshotOf(app, call.deadline)
    const exceptions = await recentExceptions(app, call.deadline)
    return {reloaded: true, durationMs, snapshot, ...shot, ...(restarted ? {restarted: true as const} : {}), recentExceptions: exceptions}
  },
  failed: failedReload,
  mcpIsError: failedReload,
  report(result) {
    if (!result.reloaded) return {stderr: [`✗ Hot reload failed after ${result.durationMs} ms: ${result.error}`]}
    const exceptions = result.recentExceptions.length
    const notes = [
      `✓ Hot reloaded in ${result.durationMs} ms`,
      ...(result.restarted ? ["⚠ flutter ran the reload as a full restart: the app's state was reset"] : []),
      ...(result.screenshot !== undefined
        ? [`✓ Screenshot: ${Math.round((result.screenshot.length * 3) / 4)} bytes of JPEG (pass --json for it)`]
        : []),
      ...(result.screenshotError !== undefined ? [`⚠ No screenshot: ${result.screenshotError}`] : []),
      ...(exceptions > 0 ? [`⚠ ${exceptions} recent exception(s): see tapir:exceptions`] : []),
    ]
    return {stdout: result.snapshot.replace(/\n$/, ''), stderr: notes}
  },
})

export const reloadVerbs = [hotReloadAndSnap]
