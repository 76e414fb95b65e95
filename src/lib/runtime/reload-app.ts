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
  /** A reload that ran as a full restart (flutter's web runner does that): the app's state is gone. */
  restarted?: boolean
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
    if (reply.noClient)
      throw new TapirError(
        `flutter recompiled the app, but no browser is connected to it, so nothing was ${kind === 'reload' ? 'reloaded' : 'restarted'} (flutter: "Recompile complete. No client connected."). Open the app's page again, then retry.`,
        'connection',
      )
    return {via: 'flutter run', message: reply.message, ...(reply.restarted ? {restarted: true} : {})}
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
  else if (await connection.runsOnWeb(deadline)) return restartWebApp(connection, deadline)
  else await connection.hotRestart(deadline)
  return {via: 'vm service', message: kind === 'reload' ? 'Reloaded' : 'Restarted'}
}

/** A hot restart of a web app tapir only attached to. DWDS's hotRestart reruns the code last
 *  compiled: only flutter's reloadSources recompiles (on the web it restarts too, unless the DDC
 *  library-bundle format makes it a reload, when DWDS's restart then runs the new code). Without
 *  DDS flutter's registration keeps the bare name, which DWDS's own reloadSources shadows: then
 *  tapir cannot recompile, and says so. */
async function restartWebApp(connection: AppConnection, deadline: Deadline): Promise<Reloaded> {
  const flutter = await connection.serviceMethod('reloadSources')
  if (flutter === undefined || flutter === 'reloadSources') {
    throw new TapirError(
      (words) =>
        `Cannot hot restart this web app with the code recompiled: tapir did not start it, and the only restart its VM Service offers is DWDS's, which reruns the code last compiled (flutter's reloadSources, which recompiles, ${flutter === undefined ? 'is not registered' : 'is out of reach without DDS'}). Restart it in the terminal that runs flutter (R), or start it with \`tapir start${words.only(' --device=chrome', '')}\`${words.only('', ' from a shell')}.`,
      'local',
    )
  }
  const before = await connection.isolateIdsNow(deadline)
  await connection.reloadSources(deadline)
  const after = await connection.isolateIdsNow(deadline)
  if (after.length > 0 && after.every((id) => before.includes(id))) await connection.hotRestart(deadline)
  else connection.forgetIsolate()
  return {via: 'vm service', message: "Recompiled through flutter's reloadSources, then restarted"}
}
