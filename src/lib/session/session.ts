import {anything, boolean, list, nullable, object, optional, record, scalar, string, type Infer} from '../shape.js'
import {ownedProcessShape} from './owned-process.js'

/** A port a session records, or null when there is none (no CDP, no web page): a number, or
 *  its digits as text (the Dart tooling writes either; session-context.ts reads both). */
const port = optional(
  nullable(
    scalar(
      'a port number',
      (value): value is number | string => Number.isInteger(value) || (typeof value === 'string' && /^\d+$/.test(value)),
    ),
  ),
)

/**
 * What tapir knows about the app it drives: the fields the Dart substrate writes
 * (research/tapir-original.md §2.2), plus the record of each process tapir started. The file is
 * read against this shape once, where it enters (store.ts), and typed from there on; fields it
 * does not name are kept as they came.
 */
export const sessionShape = object({
  /** The canonical ws:// URI with its token; null while the app boots. */
  vmServiceUri: nullable(string),
  booting: optional(boolean),
  cdpPort: port,
  /** The port the app's web page is served on (a web app in Chrome). */
  webPort: port,
  vmServicePort: port,
  projectRoot: optional(string),
  device: optional(string),
  startedAt: optional(string),
  /** When the session last saw a hot restart (ISO-8601). */
  restartedAt: optional(string),
  log: optional(string),
  supervisorSocket: optional(nullable(string)),
  /** Chrome's throwaway profile. */
  tmpProfileDir: optional(nullable(string)),
  dds: optional(boolean),
  /** flutter run's own arguments, and every option the first start was given (for restart). */
  flutterArgs: optional(list(string)),
  startArgs: optional(list(string)),
  /** One record per role: the app now; the browser and a supervisor when tapir starts them. */
  processes: optional(record(ownedProcessShape)),
  /** Bare pids, kept for other tools to read: information only, whatever they hold. tapir never
   *  signals one without a record, and stop refuses while anything runs under one. */
  pid: optional(anything),
  chromePid: optional(anything),
  stdinHolderPid: optional(anything),
})

export type Session = Infer<typeof sessionShape>

/** The bare pid fields a session file may carry, by role: read as information only. */
export const UNRECORDED_PID_FIELDS = {app: 'pid', chrome: 'chromePid', supervisor: 'stdinHolderPid'} as const
