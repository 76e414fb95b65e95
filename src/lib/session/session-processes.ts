import {TapirError} from '../errors.js'
import type {OwnedProcess, Ownership} from './owned-process.js'
import {checkOwned, checkUnrecorded} from './owned-process.js'
import type {Session} from './session.js'
import {UNRECORDED_PID_FIELDS} from './session.js'

export type Assessed = {role: string} & Ownership

/** Where every process a session names stands: each recorded process checked against its
 *  record, and each bare pid field (`pid`, `chromePid`, ...) no record covers treated as foreign
 *  while anything runs under it. */
export function assessProcesses(session: Session): Assessed[] {
  const assessed: Assessed[] = []
  const records = session.processes
  for (const [role, record] of Object.entries(records ?? {})) assessed.push({role, ...checkOwned(record)})
  for (const [role, field] of Object.entries(UNRECORDED_PID_FIELDS)) {
    const pid = session[field]
    if (pid === undefined || pid === null) continue
    if (records?.[role]?.pid === pid) continue
    assessed.push({role, ...checkUnrecorded(pid)})
  }
  return assessed
}

/** The app tapir started for this session, or while it boots the supervisor that holds it, if
 *  it still runs as recorded. */
export function runningApp(session: Session | undefined): OwnedProcess | undefined {
  if (!session) return undefined
  const assessed = assessProcesses(session)
  for (const role of ['app', 'supervisor']) {
    const entry = assessed.find((candidate) => candidate.role === role)
    if (entry?.state === 'ours') return entry.process
  }
  return undefined
}

/** Stop's refusal when any pid fails the check: nothing is signalled, the session stays. */
export function refuseForeign(assessed: Assessed[], path: string): void {
  const foreign = assessed.filter((entry) => entry.state === 'foreign')
  if (foreign.length === 0) return
  const named = foreign
    .map((entry) => `${entry.role} pid=${JSON.stringify(entry.pid ?? null)} (${entry.state === 'foreign' ? entry.reason : ''})`)
    .join('; ')
  throw new TapirError(
    `Refusing to stop: the session names processes tapir cannot prove it started: ${named}. Nothing was signalled and the session is kept. Stop such a process yourself if it is yours, then remove ${path}.`,
    'local',
  )
}
