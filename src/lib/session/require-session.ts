import {TapirError} from '../errors.js'
import type {SessionLocation} from './location.js'
import {isWithin} from './project-root.js'
import type {Session} from './session.js'
import {readSession} from './store.js'

export function noSessionError(location: SessionLocation): TapirError {
  return new TapirError(
    (words) =>
      `No running Flutter app detected (session file: ${location.path}). ${words.only(
        'Run `tapir start --device=sim` or `tapir attach --uri <VM Service URI>` first.',
        'Call tapir_start first (device "sim" for the simulated app; tapir_devices lists the others), or tapir_attach with its VM Service URI.',
      )}`,
    'local',
  )
}

/** The session a connected verb needs, with its VM Service URI; exit 1 when there is none. */
export function requireSession(location: SessionLocation, cwd: string): Session & {vmServiceUri: string} {
  const session = readSession(location)
  if (!session) throw noSessionError(location)
  checkOwnership(location, session, cwd)
  const {vmServiceUri} = session
  if (!vmServiceUri) {
    throw new TapirError(
      (words) =>
        `The session has no VM Service URI yet (the app is still booting). Wait for it, or ${words.only('run `tapir attach --uri <VM Service URI>`', 'call tapir_status until it answers, or tapir_attach with its VM Service URI')}.`,
      'local',
    )
  }
  return {...session, vmServiceUri}
}

/** A session found through the shared pointer may be another project's: never act on it. */
export function checkOwnership(location: SessionLocation, session: Session, cwd: string): void {
  if (!location.named && session.projectRoot && !isWithin(cwd, session.projectRoot)) {
    throw new TapirError(
      (words) =>
        `The running app belongs to another project (${session.projectRoot}), not this one (${location.projectRoot}). Run tapir from that project, or ${words.only('pass --state=<file> to name the session you mean', 'start the MCP server on the session you mean (TAPIR_STATE_FILE, or its state option)')}.`,
      'local',
    )
  }
}
