import {TapirError} from '../errors.js'
import type {AppConnection} from '../vm/app-connection.js'
import type {Deadline} from '../vm/deadline.js'
import {ReloadRejected} from '../vm/reload-rejected.js'
import {defineVerb} from './define.js'
import type {Result} from './types.js'

const RECENT_EXCEPTIONS = '5'
const RELOAD_COMPILE_MS = 60_000

async function recentExceptions(app: AppConnection, deadline: Deadline): Promise<unknown[]> {
  const answer = await app.callExtension('exceptions', {limit: RECENT_EXCEPTIONS}, deadline)
  return Array.isArray(answer.exceptions) ? answer.exceptions : []
}

async function screenshotOf(app: AppConnection, deadline: Deadline): Promise<Result> {
  try {
    const shot = await app.callExtension('screenshot', {format: 'jpeg'}, deadline)
    return typeof shot.base64 === 'string' ? {screenshot: shot.base64} : {screenshotError: 'the app returned no image'}
  } catch (error) {
    if (error instanceof TapirError) return {screenshotError: error.message}
    throw error
  }
}

const failedReload = (result: Result) => result.reloaded === false

export const hotReloadAndSnap = defineVerb({
  name: 'hot_reload_and_snap',
  tool: 'tapir_hot_reload_and_snap',
  dispatch: 'tapir:hot_reload_and_snap',
  summary:
    'Hot reload the app, then read its snapshot, a screenshot and its recent exceptions; a compile error comes back as reloaded: false with the error.',
  cliExit: 'exits 1 when the reload failed to compile',
  example: '--no-screenshot',
  kind: 'action',
  // flutter recompiles before it reloads: that is the app's own wait, on top of --timeout.
  waitsMs: () => RELOAD_COMPILE_MS,
  params: [{name: 'screenshot', type: 'boolean', default: true, description: 'Capture a screenshot after the reload.'}],
  async execute(call, input): Promise<Result> {
    if (!call.reload) throw new TapirError('Hot reload needs a session: run `tapir start --device=<id>` first.', 'local')
    const started = Date.now()
    try {
      await call.reload('reload', call.deadline)
    } catch (error) {
      if (!(error instanceof ReloadRejected)) throw error
      const durationMs = Date.now() - started
      const exceptions = await recentExceptions(await call.app(), call.deadline).catch(() => [])
      return {reloaded: false, durationMs, error: error.compileMessage, recentExceptions: exceptions}
    }
    const durationMs = Date.now() - started
    const app = await call.app()
    const snap = await app.callExtension('snap', {}, call.deadline)
    const shot = input.screenshot === false ? {} : await screenshotOf(app, call.deadline)
    return {reloaded: true, durationMs, snapshot: snap.snapshot, ...shot, recentExceptions: await recentExceptions(app, call.deadline)}
  },
  failed: failedReload,
  mcpIsError: failedReload,
  report(result) {
    if (failedReload(result)) return {stderr: [`✗ Hot reload failed after ${result.durationMs} ms: ${String(result.error)}`]}
    const exceptions = Array.isArray(result.recentExceptions) ? result.recentExceptions.length : 0
    const notes = [
      `✓ Hot reloaded in ${result.durationMs} ms`,
      ...(typeof result.screenshot === 'string'
        ? [`✓ Screenshot: ${Math.round((result.screenshot.length * 3) / 4)} bytes of JPEG (pass --json for it)`]
        : []),
      ...(typeof result.screenshotError === 'string' ? [`⚠ No screenshot: ${result.screenshotError}`] : []),
      ...(exceptions > 0 ? [`⚠ ${exceptions} recent exception(s): see tapir:exceptions`] : []),
    ]
    return {stdout: typeof result.snapshot === 'string' ? result.snapshot.replace(/\n$/, '') : '', stderr: notes}
  },
})

export const reloadVerbs = [hotReloadAndSnap]
