import {createHash, randomBytes} from 'node:crypto'
import {closeSync, constants, linkSync, openSync, renameSync, unlinkSync, writeSync} from 'node:fs'
import {basename, dirname, join} from 'node:path'
import {TapirError, errorCode} from '../errors.js'
import {object, readAs, string} from '../shape.js'
import {ensureFolder, fileError} from '../write-atomic.js'
import type {SessionLocation} from './location.js'
import {checkOwned, identify} from './owned-process.js'
import {checkFolders} from './store.js'
import {readTrustedFile} from './trust.js'

/** What a lock file holds: its holder's process record, and what it is doing since when. */
interface Holder {
  pid: number
  argv: string[]
  startTime: string
  bootId?: string
  command: string
  since: string
}

function unlinkQuietly(path: string): void {
  try {
    unlinkSync(path)
  } catch {
    // already gone
  }
}

/** Publishes `text` at `path` only if nothing is there: written whole to a private temp file,
 *  then hard-linked into place, which fails if the name exists (even as a dangling link). */
function createExclusive(path: string, text: string): boolean {
  const tmp = join(dirname(path), `.${basename(path)}.${randomBytes(8).toString('hex')}.tmp`)
  const fd = openSync(tmp, constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | (constants.O_NOFOLLOW ?? 0), 0o600)
  try {
    writeSync(fd, text)
  } finally {
    closeSync(fd)
  }
  try {
    linkSync(tmp, path)
    return true
  } catch (error) {
    if (errorCode(error) === 'EEXIST') return false
    throw error
  } finally {
    unlinkQuietly(tmp)
  }
}

/** What a lock file says of its holder beyond its process record (which checkOwned reads). */
const holderShape = object({command: string, since: string})

/** The lock's holder, when the file names one whose process still runs as it recorded. */
function liveHolder(text: string | undefined): Holder | undefined {
  let value: unknown
  try {
    value = JSON.parse(text ?? '')
  } catch {
    return undefined
  }
  const read = readAs(holderShape, value)
  const owner = checkOwned(value)
  return 'value' in read && owner.state === 'ours' ? {...owner.process, command: read.value.command, since: read.value.since} : undefined
}

const changingHands = (lock: string) => new TapirError(`Cannot take the lock ${lock}: it keeps changing hands. Try again.`, 'local')

/** How many claims deep a takeover follows claims whose makers died in turn before it gives up. */
const MAX_CLAIM_DEPTH = 3

/** Replaces the file `name`, whose text `stale` names a holder that is gone, with `mine`. False
 *  when `name` no longer holds that text (another process took it over, or it went away), so the
 *  caller looks again; throws `busy` naming a live process that is taking it over right now.
 *
 *  A read of the text and then an unlink by name is not safe: between the two, another process
 *  that judged the same text stale may remove it and create its own lock, which the unlink then
 *  removes, and both run the critical section. So the takeover first creates, exclusively, a
 *  claim named for that stale text (`<name>.takeover-<hash>`) holding `mine`; of all the processes
 *  that judged the text stale, only one holds the claim at a time. While it does, `name` cannot
 *  change: a create needs the name free, the holder the text names is gone (it releases nothing),
 *  and any other takeover of that text needs the claim. So when `name` still holds `stale` after
 *  the claim is made, renaming the claim over it replaces exactly the lock judged stale, at once.
 *  A process that judged the same text stale earlier and makes the claim after that rename reads
 *  another text at `name` (a gone holder's text never comes back: each lock names its holder's
 *  pid, start time and the time it took it), and removes its claim. A claim whose maker died
 *  before its rename is a stale lock itself, taken over the same way, one level down. */
function takeOver(name: string, stale: string, mine: string, busy: (holder: Holder) => TapirError, lock: string, depth = 0): boolean {
  const claim = `${name}.takeover-${createHash('sha256').update(stale).digest('hex').slice(0, 16)}`
  let made: boolean
  try {
    made = createExclusive(claim, mine)
  } catch (error) {
    throw fileError('create the lock', claim, error)
  }
  if (!made) {
    const seen = readTrustedFile(claim)
    if (seen === undefined) return false // its maker gave up or finished: look again
    const holder = liveHolder(seen)
    if (holder) throw busy(holder)
    if (depth >= MAX_CLAIM_DEPTH) throw changingHands(lock)
    if (!takeOver(claim, seen, mine, busy, lock, depth + 1)) return false
  }
  let replaced = false
  try {
    if (readTrustedFile(name) === stale) {
      renameSync(claim, name)
      replaced = true
    }
  } catch (error) {
    throw fileError('take over the lock', name, error)
  } finally {
    if (!replaced) unlinkQuietly(claim) // still ours: a live holder's file is never taken over
  }
  return replaced
}

/** Runs `work` holding the session's lock, so two start/attach/stop calls on one session never
 *  interleave. A lock whose holder is no longer running (same pid, argv and start time) is stale
 *  and taken over; a live holder makes this call fail with exit 1, naming it. */
export async function withSessionLock<T>(location: SessionLocation, command: string, work: () => Promise<T>): Promise<T> {
  const release = takeLock(
    location,
    `${location.path}.lock`,
    command,
    (holder, lock) =>
      new TapirError(
        `Another tapir (pid ${holder.pid}, \`tapir ${holder.command}\`, since ${holder.since}) is working on this session; wait for it to finish, then try again. Lock: ${lock}`,
        'local',
      ),
  )
  try {
    return await work()
  } finally {
    release()
  }
}

/** Takes the lock file `lock` beside the session for this process, or throws `busy` naming the
 *  live tapir that holds it; a lock whose holder is gone is taken over. Returns the release,
 *  which removes the lock only while it is still this process's own. */
export function takeLock(
  location: SessionLocation,
  lock: string,
  command: string,
  busy: (holder: {pid: number; command: string; since: string}, lock: string) => TapirError,
): () => void {
  try {
    ensureFolder(dirname(lock), 0o700)
  } catch (error) {
    throw fileError('create the sessions folder for', lock, error)
  }
  checkFolders(location)
  const me = identify(process.pid)
  const mine = JSON.stringify({
    pid: process.pid,
    argv: me?.argv ?? [],
    startTime: me?.startTime ?? '',
    bootId: me?.bootId,
    command,
    since: new Date().toISOString(),
  } satisfies Holder)
  for (let attempt = 0; ; attempt++) {
    let created: boolean
    try {
      created = createExclusive(lock, mine)
    } catch (error) {
      throw fileError('create the lock', lock, error)
    }
    if (created) break
    const seen = readTrustedFile(lock)
    if (seen === undefined) continue // released between our two looks
    const holder = liveHolder(seen)
    if (holder) throw busy(holder, lock)
    if (attempt >= 5) throw changingHands(lock)
    if (takeOver(lock, seen, mine, (holder) => busy(holder, lock), lock)) break
  }
  return () => {
    if (readLockQuietly(lock) === mine) unlinkQuietly(lock)
  }
}

function readLockQuietly(lock: string): string | undefined {
  try {
    return readTrustedFile(lock)
  } catch {
    return undefined
  }
}
