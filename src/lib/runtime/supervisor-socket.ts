import {removeSocketFolder} from '../flutter/socket-folder.js'
import type {Session} from '../session/session.js'

/** Removes what the session's supervisor left of its socket once it has ended (one that was
 *  killed cannot remove it itself): only the path that supervisor was launched with, so a path
 *  planted in the session alone is not enough. */
export function removeSupervisorSocket(session: Session): void {
  const socket = session.supervisorSocket
  const argv = session.processes?.supervisor?.argv
  if (typeof socket !== 'string' || !argv) return
  const at = argv.indexOf('--socket')
  if (at !== -1 && argv[at + 1] === socket) removeSocketFolder(socket)
}
