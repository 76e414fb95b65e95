import {defineCommand} from '../lib/commands/types.js'
import {TapirError} from '../lib/errors.js'
import {linesOutcome, type Outcome} from '../lib/output/outcome.js'
import type {ReloadKind} from '../lib/runtime/reload-app.js'
import {Deadline} from '../lib/vm/deadline.js'

/** How long flutter may take to recompile, on top of --timeout. */
const COMPILE_MS = 60_000

/** What tells `tapir reload` and `tapir hot-restart` apart: the words, and the kind of reload. */
interface ReloadWords {
  kind: ReloadKind
  id: string
  summary: string
  /** The service `flutter run` registers for it, for an app tapir only attached to. */
  service: 'reloadSources' | 'hotRestart'
  done: string
}

const VIA =
  "Through the `flutter run` tapir started (tapir start --device=<id>), or, for an app tapir only attached to, through the %s service `flutter run` registered on its VM Service. A compile error exits 1 with the compiler's message."

export const RELOAD: ReloadWords = {
  kind: 'reload',
  id: 'reload',
  summary: "Hot reload the app: recompile the changed code and build the widgets again, keeping the app's state.",
  service: 'reloadSources',
  done: 'Hot reloaded',
}

export const HOT_RESTART: ReloadWords = {
  kind: 'restart',
  id: 'hot-restart',
  summary: 'Hot restart the app: recompile and run main() again in a new isolate, with fresh state.',
  service: 'hotRestart',
  done: 'Hot restarted',
}

/** `tapir reload` or `tapir hot-restart`: one reload of the session's app. */
export function reloadCommand(words: ReloadWords) {
  return defineCommand({
    id: words.id,
    summary: words.summary,
    description: VIA.replace('%s', words.service),
    examples: [`<%= config.bin %> ${words.id}`],
    params: [],
    globals: 'all',
    session: 'reads',
    async run(flags, {verbs: context}): Promise<Outcome> {
      // The CLI's context is the session's, which can reload; the check is for the type.
      if (!context.reload) throw new TapirError('This context cannot reload the app.', 'local')
      const started = Date.now()
      const reloaded = await context.reload(words.kind, new Deadline(flags.timeout, COMPILE_MS))
      const durationMs = Date.now() - started
      const said = reloaded.message ? ` (${reloaded.message})` : ''
      const reset = reloaded.restarted ? "; flutter ran it as a full restart, so the app's state was reset" : ''
      return linesOutcome(
        [`✓ ${words.done} through ${reloaded.via} in ${durationMs} ms${said}${reset}`],
        {kind: words.kind, via: reloaded.via, message: reloaded.message, durationMs, ...(reloaded.restarted ? {restarted: true} : {})},
        flags.json === true,
      )
    },
  })
}

export const RELOAD_COMMAND = reloadCommand(RELOAD)
export const HOT_RESTART_COMMAND = reloadCommand(HOT_RESTART)
