import {TapirError} from '../errors.js'
import {askSupervisor} from '../flutter/supervisor-client.js'
import {checkOwned} from '../session/owned-process.js'
import type {Session} from '../session/session.js'
import type {AppConnection} from '../vm/app-connection.js'
import type {Deadline} from '../vm/deadline.js'
import {ReloadRejected} from '../vm/reload-rejected.js'

export type ReloadKind = 'reload' | 'restart'

/** How a reload went: through the supervisor's `flutter run` daemon, or the services `flutter run`
 *  registered on the VM Service of an app tapir only attached to. */
export interface Reloaded {
  via: 'flutter run' | 'vm service'
  message: string
}

/** The supervisor tapir started for this session, while it provably still runs. */
export function supervisorOf(session: Session): string | undefined {
  const socket = session.supervisorSocket
  const record = session.processes?.supervisor
  if (typeof socket !== 'string' || !record) return undefined
  return checkOwned(record).state === 'ours' ? socket : undefined
}

/** Hot reload (`reload`) or hot restart (`restart`) of the session's app. A compile error is a
 *  ReloadRejected; with neither a supervisor nor the services it says so (exit 1). */
export async function reloadApp(
  session: Session,
  app: () => Promise<AppConnection>,
  kind: ReloadKind,
  deadline: Deadline,
): Promise<Reloaded> {
  const what = kind === 'reload' ? 'Hot reload' : 'Hot restart'
  const socket = supervisorOf(session)
  if (socket !== undefined) {
    const reply = await deadline.race(
      askSupervisor(socket, {op: 'restart', fullRestart: kind === 'restart'}, deadline.remainingMs()),
      `the ${what.toLowerCase()}`,
    )
    if (!reply.ok) throw new ReloadRejected(what, reply.compileError ?? reply.message)
    return {via: 'flutter run', message: reply.message}
  }
  const connection = await app()
  const service = kind === 'reload' ? 'reloadSources' : 'hotRestart'
  if (!(await connection.offers(service))) {
    throw new TapirError(
      (words) =>
        `Cannot ${what.toLowerCase()}: tapir did not start this app and its VM Service offers no ${service} service (only an app run by \`flutter run\` has one). ${words.only('Start the app with `tapir start --device=<id>`.', 'Start the app with tapir_start.')}`,
      'local',
    )
  }
  if (kind === 'reload') await connection.reloadSources(deadline)
  else await connection.hotRestart(deadline)
  return {via: 'vm service', message: kind === 'reload' ? 'Reloaded' : 'Restarted'}
}
