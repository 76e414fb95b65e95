/** What tapir knows about the app it drives; the same fields the Dart substrate writes. */
export interface Session {
  vmServiceUri: string | null
  cdpPort?: number | null
  pid?: number | null
  chromePid?: number | null
  projectRoot?: string
  device?: string
  startedAt?: string
  [field: string]: unknown
}
