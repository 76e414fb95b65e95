import {readFileSync} from 'node:fs'
import {errorCode} from '../errors.js'
import {integer, isJsonObject, list, object, optional, readAs, string, type Shape} from '../shape.js'

/** What tapir records about a process it started: enough to prove later that a pid still
 *  names that process and not a recycled one or a planted one. */
export interface OwnedProcess {
  pid: number
  /** The argv as the system reports it (on Linux, /proc/<pid>/cmdline exactly). */
  argv: string[]
  /** Linux: field 22 of /proc/<pid>/stat (clock ticks after boot); elsewhere: `ps -o lstart=`. */
  startTime: string
  /** Linux: /proc/sys/kernel/random/boot_id, so a start time from an earlier boot never matches. */
  bootId?: string
}

type Identity = Omit<OwnedProcess, 'pid'>

/** A record as a file holds it (a session, the lock): its fields of their types. */
export const ownedProcessShape: Shape<OwnedProcess> = object({
  pid: integer,
  argv: list(string),
  startTime: string,
  bootId: optional(string),
})

/** Where a recorded pid stands: `ours` may be signalled, `gone` needs nothing, `foreign` must be
 *  left alone (and the reason says why). */
export type Ownership =
  {state: 'ours'; process: OwnedProcess} | {state: 'gone'; pid: number} | {state: 'foreign'; pid: unknown; reason: string}

/** A pid tapir could ever signal: -1 is every process, 0 tapir's own group, a negative pid a
 *  whole group, and 1 is init. */
export function isSignallablePid(pid: unknown): pid is number {
  return typeof pid === 'number' && Number.isSafeInteger(pid) && pid > 1
}

function exists(pid: number): boolean {
  try {
    process.kill(pid, 0)
    return true
  } catch (error) {
    return errorCode(error) === 'EPERM' // there, but another user's
  }
}

/** Field 22 of /proc/<pid>/stat; the command name (field 2) may hold spaces and parentheses. */
function linuxStartTime(stat: string): string | undefined {
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ')
  const startTime = fields[22 - 3]
  return startTime && /^\d+$/.test(startTime) ? startTime : undefined
}

/** An exited process its parent has not reaped yet: nothing left to signal. */
function isZombie(pid: number): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8')
    return stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3) === 'Z'
  } catch {
    return false
  }
}

function linuxIdentity(pid: number): Identity | undefined {
  try {
    const cmdline = readFileSync(`/proc/${pid}/cmdline`, 'utf8')
    const startTime = linuxStartTime(readFileSync(`/proc/${pid}/stat`, 'utf8'))
    if (!cmdline || !startTime) return undefined // a zombie or kernel thread: nothing to prove
    return {argv: cmdline.replace(/\0$/, '').split('\0'), startTime, bootId: readFileSync('/proc/sys/kernel/random/boot_id', 'utf8').trim()}
  } catch {
    return undefined
  }
}

/** Without /proc, ps is what the system offers: the start time to the second and the argv
 *  joined by spaces, so the check compares the joined form. */
function psIdentity(pid: number): Identity | undefined {
  // A builtin loaded where used, not at the top: every start-up would pay for it (docs/architecture.md, Start-up).
  try {
    const out = (args: string[]) =>
      process
        .getBuiltinModule('node:child_process')
        .execFileSync('ps', [...args, '-p', String(pid)], {
          encoding: 'utf8',
          stdio: ['ignore', 'pipe', 'ignore'],
          env: {...process.env, LC_ALL: 'C'},
        })
        .trim()
    const startTime = out(['-o', 'lstart='])
    const command = out(['-o', 'command='])
    return startTime && command ? {argv: [command], startTime} : undefined
  } catch {
    return undefined
  }
}

/** The identity of a live process now; undefined when it cannot be read. */
export function identify(pid: number): Identity | undefined {
  if (!isSignallablePid(pid)) return undefined
  return process.platform === 'linux' ? linuxIdentity(pid) : psIdentity(pid)
}

/** Records a process tapir just started, checking that the system reports the argv tapir gave it. */
export function recordProcess(pid: number, spawnedArgv: string[]): OwnedProcess | undefined {
  const identity = identify(pid)
  if (!identity) return undefined
  const matches = process.platform === 'linux' ? sameArgv(identity.argv, spawnedArgv) : identity.argv[0] === spawnedArgv.join(' ')
  return matches ? {pid, ...identity} : undefined
}

/** Records a process this tapir spawned itself and has not reaped, as the system reports it
 *  now: a launcher script (`google-chrome`, Debian's `chromium`) execs the real browser with
 *  other arguments, so what proves the pid is tapir's is that tapir is its parent. */
export function recordOwnChild(pid: number): OwnedProcess | undefined {
  if (parentOf(pid) !== process.pid) return undefined
  const identity = identify(pid)
  return identity ? {pid, ...identity} : undefined
}

/** The parent of a live process: field 4 of /proc/<pid>/stat, or `ps -o ppid=`. */
function parentOf(pid: number): number | undefined {
  try {
    if (process.platform === 'linux') {
      const stat = readFileSync(`/proc/${pid}/stat`, 'utf8')
      return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1])
    }
    return Number(
      process
        .getBuiltinModule('node:child_process')
        .execFileSync('ps', ['-o', 'ppid=', '-p', String(pid)], {encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore']})
        .trim(),
    )
  } catch {
    return undefined
  }
}

/** Records a process a recorded process of tapir's spawned (flutter under the supervisor): a
 *  launcher script may have replaced its argv with exec, so what proves it is tapir's is its
 *  parent, and the identity is taken as the system reports it now. */
export function recordChildProcess(pid: number, parent: OwnedProcess): OwnedProcess | undefined {
  if (checkOwned(parent).state !== 'ours' || parentOf(pid) !== parent.pid) return undefined
  const identity = identify(pid)
  return identity ? {pid, ...identity} : undefined
}

/** recordChildProcess for a child that may be in the middle of an exec (flutter's launcher
 *  script execs the real tool): its command line reads as empty for that moment, more often the
 *  busier the machine is, so an unreadable identity is read again while the child still runs
 *  under `parent`, for up to `withinMs`. */
export async function recordExecingChild(pid: number, parent: OwnedProcess, withinMs = 2000): Promise<OwnedProcess | undefined> {
  const deadline = Date.now() + withinMs
  for (;;) {
    const record = recordChildProcess(pid, parent)
    if (record || Date.now() >= deadline || parentOf(pid) !== parent.pid || isZombie(pid)) return record
    await new Promise((resolve) => setTimeout(resolve, 10))
  }
}

function sameArgv(a: string[], b: string[]): boolean {
  return a.length === b.length && a.every((part, index) => part === b[index])
}

/** The record, when it is a whole one of a pid tapir could have started. */
function recordOf(value: unknown): OwnedProcess | undefined {
  const read = readAs(ownedProcessShape, value)
  return 'value' in read && isSignallablePid(read.value.pid) && read.value.argv.length > 0 ? read.value : undefined
}

/** Whether a recorded process is still the one tapir started: same argv, same start time (and
 *  boot). A record that is malformed, or a process whose identity cannot be read, is foreign. */
export function checkOwned(value: unknown): Ownership {
  const record = recordOf(value)
  if (!record) {
    const pid = isJsonObject(value) ? value.pid : undefined
    return {
      state: 'foreign',
      pid,
      reason: isSignallablePid(pid)
        ? 'its record is incomplete'
        : `${JSON.stringify(pid ?? null)} is not a process id tapir could have started`,
    }
  }
  if (!exists(record.pid)) return {state: 'gone', pid: record.pid}
  const now = identify(record.pid)
  if (!now)
    return exists(record.pid) && !isZombie(record.pid)
      ? {state: 'foreign', pid: record.pid, reason: 'its command line and start time cannot be read'}
      : {state: 'gone', pid: record.pid}
  if (now.startTime !== record.startTime || (record.bootId !== undefined && now.bootId !== record.bootId)) {
    return {state: 'foreign', pid: record.pid, reason: 'it started at another time than the process tapir recorded (the pid was reused)'}
  }
  if (!sameArgv(now.argv, record.argv)) return {state: 'foreign', pid: record.pid, reason: 'its command line is not the one tapir recorded'}
  return {state: 'ours', process: record}
}

/** A bare pid with no record (an older session's `pid`, another tool's file): never signalled.
 *  Gone is harmless; anything still running, or not a pid at all, is foreign. */
export function checkUnrecorded(pid: unknown): Ownership {
  if (!isSignallablePid(pid)) return {state: 'foreign', pid, reason: `${JSON.stringify(pid)} is not a process id tapir could have started`}
  if (!exists(pid)) return {state: 'gone', pid}
  return {state: 'foreign', pid, reason: 'tapir has no record proving it started this process'}
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

/** Sends a signal; false when the process exited between the check and the signal (ESRCH). */
function signal(pid: number, name: NodeJS.Signals): boolean {
  try {
    process.kill(pid, name)
    return true
  } catch (error) {
    if (errorCode(error) === 'ESRCH') return false
    throw error
  }
}

/** SIGTERM, then SIGKILL if it is still there after `graceMs`; the identity is checked again
 *  before each signal, so a process that exits and whose pid is reused meanwhile is left alone.
 *  Resolves once the pid is gone (or, if it stopped being ours, after the grace period). */
export async function terminateOwned(record: OwnedProcess, graceMs = 5000): Promise<void> {
  if (checkOwned(record).state !== 'ours') return
  if (!signal(record.pid, 'SIGTERM')) return
  let deadline = Date.now() + graceMs
  let killed = false
  while (exists(record.pid)) {
    if (Date.now() > deadline) {
      if (killed || checkOwned(record).state !== 'ours') return
      if (!signal(record.pid, 'SIGKILL')) return
      killed = true
      deadline = Date.now() + 1000
    }
    await sleep(50)
  }
}
