import {TapirError, messageOf} from '../errors.js'
import {drivenZeroInstall, executeVerb} from '../verbs/execute-verb.js'
import {getRoutes} from '../verbs/read-verbs.js'
import type {VerbContext} from '../verbs/types.js'
import {Deadline} from '../vm/deadline.js'

export const FRESH = ['restart', 'start', 'none'] as const
export type Fresh = (typeof FRESH)[number]

/** How long a hot restart may take to compile, on top of --timeout (as tapir hot-restart gives it). */
const COMPILE_MS = 60_000
/** How long the new isolate may take to register tapir's extensions again. */
const EXTENSIONS_MS = 30_000
const RETRY_MS = 100

/** A hot restart of the session's app, then tapir's extensions awaited in the new isolate. */
export async function hotRestart(context: VerbContext): Promise<void> {
  if (!context.reload) throw new TapirError('This session cannot hot restart its app; give --fresh=start or --fresh=none.', 'local')
  await context.reload('restart', new Deadline(context.timeoutMs, COMPILE_MS))
  await extensionsBack(context)
}

/** Waits until the app answers a tapir extension (get_routes, which reads and changes nothing):
 *  after a restart the new isolate registers them anew. An app with no package is back once it
 *  can be driven zero-install (its main() drew a frame, its semantics dump is registered). */
export async function extensionsBack(context: VerbContext): Promise<void> {
  const until = Date.now() + EXTENSIONS_MS
  for (;;) {
    try {
      if (await drivenZeroInstall(context)) return
      await executeVerb(getRoutes, context, {})
      return
    } catch (error) {
      if (Date.now() >= until)
        throw new TapirError(
          `the app did not answer tapir's extensions within ${EXTENSIONS_MS / 1000} s of its restart: ${messageOf(error)}`,
          'app',
        )
      context.reset?.()
      await new Promise((resolve) => setTimeout(resolve, RETRY_MS))
    }
  }
}
