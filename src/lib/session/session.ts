import type {OwnedProcess} from './owned-process.js'

/** What tapir knows about the app it drives; the fields the Dart substrate writes, plus the
 *  record of each process tapir started (`pid` and `chromePid` are kept for other tools to read,
 *  but tapir never signals a pid that has no record). */
export interface Session {
  vmServiceUri: string | null
  cdpPort?: number | null
  pid?: number | null
  chromePid?: number | null
  /** The exact argv tapir spawned Chrome with (binary first), and its throwaway profile. */
  tmpProfileDir?: string | null
  /** The port the app's web page is served on (a web app in Chrome). */
  webPort?: number | null
  projectRoot?: string
  device?: string
  startedAt?: string
  processes?: SessionProcesses
  [field: string]: unknown
}

/** One record per role: the app now; the browser and a supervisor when tapir starts them. */
export interface SessionProcesses {
  app?: OwnedProcess
  chrome?: OwnedProcess
  supervisor?: OwnedProcess
  [role: string]: OwnedProcess | undefined
}

/** The bare pid fields a session file may carry, by role: read as information only. */
export const UNRECORDED_PID_FIELDS = {app: 'pid', chrome: 'chromePid', supervisor: 'stdinHolderPid'} as const
