/** What tapir knows about the app it drives; the same fields the Dart substrate writes. */
export interface Session {
  vmServiceUri: string | null
  cdpPort?: number | null
  pid?: number | null
  chromePid?: number | null
  /** The exact argv tapir spawned Chrome with (binary first), and its throwaway profile. */
  chromeArgv?: string[] | null
  tmpProfileDir?: string | null
  /** The port the app's web page is served on (a web app in Chrome). */
  webPort?: number | null
  projectRoot?: string
  device?: string
  startedAt?: string
  [field: string]: unknown
}
