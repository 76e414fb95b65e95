import {unlinkSync} from 'node:fs'
import {TapirError, errorCode} from '../errors.js'
import {integer, list, object, readAs, anything, string, type Shape} from '../shape.js'
import {fileError, writeAtomic} from '../write-atomic.js'
import type {SessionLocation} from './location.js'
import {takeLock} from './lock.js'
import {checkOwned, identify, type OwnedProcess} from './owned-process.js'
import {readTrustedFile} from './trust.js'

/** More holders than anyone drives by hand: beyond this a new one is refused. */
export const MAX_HOLDERS = 16

/** How long a holder waits for another to finish changing the stack (a CDP call or two). */
const LOCK_WAIT_MS = 15_000
const LOCK_RETRY_MS = 25

/** One holder: its process record (proved live and its own as a session's processes are) and
 *  what it holds. */
export interface HoldEntry<T> extends OwnedProcess {
  held: T
  since: string
}

/** The stack as read: `generation` counts its changes, so a holder sees one it has not applied. */
export interface HoldState<T> {
  generation: number
  /** Live holders, oldest first; the last one's override is the one in force. */
  holders: Array<HoldEntry<T>>
}

/** What a holder compares to see whether the stack changed: its generation and its live holders. */
const keyOf = (generation: number, holders: Array<{pid: number}>): string =>
  `${generation}:${holders.map((holder) => holder.pid).join(',')}`

function removeQuietly(path: string): void {
  try {
    unlinkSync(path)
  } catch (error) {
    if (errorCode(error) !== 'ENOENT') throw fileError('remove', path, error)
  }
}

class LockBusy extends TapirError {}

const fileShape = object({generation: integer, holders: list(object({pid: integer, held: anything, since: string}))})

/** The holders of one session's page, kept in a small file beside the session and changed only
 *  under its lock: the newest live holder's override is in force, and when it goes the one
 *  beneath applies its own again. */
export class HoldStack<T> {
  /** This process's record, read once a holder needs it (every verb looks for a dead holder). */
  private own: OwnedProcess | undefined
  /** This process's entry once it pushed, to put back should the file lose it. */
  private mine: HoldEntry<T> | undefined

  constructor(
    private readonly location: SessionLocation,
    private readonly path: string,
    private readonly heldShape: Shape<T>,
  ) {}

  private get me(): OwnedProcess {
    if (this.own) return this.own
    const identity = identify(process.pid)
    this.own = {
      pid: process.pid,
      argv: identity?.argv ?? [],
      startTime: identity?.startTime ?? '',
      ...(identity?.bootId ? {bootId: identity.bootId} : {}),
    }
    return this.own
  }

  /** The stack now, without the lock, holders that are gone (or whose pid was reused) left out. */
  read(): HoldState<T> {
    const text = readTrustedFile(this.path)
    if (text === undefined) return {generation: 0, holders: []}
    let value: unknown
    try {
      value = JSON.parse(text)
    } catch {
      return {generation: 0, holders: []} // torn or planted: nobody proven holds
    }
    const read = readAs(fileShape, value)
    if ('problem' in read) return {generation: 0, holders: []}
    const holders: Array<HoldEntry<T>> = []
    for (const entry of read.value.holders) {
      const held = readAs(this.heldShape, entry.held)
      // The shape keeps each entry as it came: the record is checked as a whole, pid and all.
      const owner = checkOwned(entry)
      if ('value' in held && owner.state === 'ours') holders.push({...owner.process, held: held.value, since: entry.since})
    }
    return {generation: read.value.generation, holders}
  }

  /** When the holder on top of the file is gone (killed outright, so it never cleared its
   *  override) and none of its own still holds: under the lock, runs `clear` with what it held (to
   *  take its override off the page) and writes the stack without the dead. Chrome kept such an
   *  override on the page (docs/viewport-holds.md). Returns whether it cleared. */
  async clearDead(clear: (held: T) => Promise<void>): Promise<boolean> {
    if (this.deadOnTop() === undefined) return false
    let cleared = false
    await this.change(async (state) => {
      const dead = this.deadOnTop()
      if (dead === undefined) return {key: ''}
      await clear(dead)
      cleared = true
      return {holders: state.holders, key: ''}
    })
    return cleared
  }

  /** What the topmost entry of the file held, when that holder is gone; undefined otherwise. */
  private deadOnTop(): T | undefined {
    let value: unknown
    try {
      const text = readTrustedFile(this.path)
      if (text === undefined) return undefined
      value = JSON.parse(text)
    } catch {
      return undefined
    }
    const read = readAs(fileShape, value)
    if ('problem' in read) return undefined
    const top = read.value.holders.at(-1)
    if (!top || checkOwned(top).state === 'ours') return undefined
    const held = readAs(this.heldShape, top.held)
    return 'value' in held ? held.value : undefined
  }

  /** Under the lock: adds this process on top, holding `held`, and runs `apply` (which puts its
   *  override in force). Returns the key of the stack as it then stands. */
  async push(held: T, apply: () => Promise<void>): Promise<string> {
    return this.change(async (state) => {
      const holders = state.holders.filter((holder) => holder.pid !== this.me.pid)
      if (holders.length >= MAX_HOLDERS)
        throw new TapirError(
          `${holders.length} tapir:resize --hold holders already hold this session's page (pids ${holders.map((holder) => holder.pid).join(', ')}). End one first (kill -INT <pid>).`,
          'local',
        )
      await apply()
      this.mine = {...this.me, held, since: new Date().toISOString()}
      const next = [...holders, this.mine]
      return {holders: next, key: keyOf(state.generation + 1, next)}
    })
  }

  /** The key of the stack now (read without the lock). */
  key(): string {
    const state = this.read()
    return keyOf(state.generation, state.holders)
  }

  /** When the stack changed since `key` (a holder came, left or died) and this process is now
   *  the newest live holder, runs `apply` under the lock to put its override in force again.
   *  Returns the key that applies from now on. */
  async reapply(key: string, apply: () => Promise<void>): Promise<string> {
    if (this.key() === key) return key
    return this.change(async (state) => {
      const mine = this.mine
      // A file torn or overwritten while this process holds: it goes back in, in the place its
      // start gives it among the holders the file still names.
      const lost = mine !== undefined && !state.holders.some((holder) => holder.pid === this.me.pid)
      const holders = lost ? [...state.holders, mine].sort((a, b) => (a.since < b.since ? -1 : a.since > b.since ? 1 : 0)) : state.holders
      if (holders.at(-1)?.pid === this.me.pid) await apply()
      return lost ? {holders, key: keyOf(state.generation + 1, holders)} : {key: keyOf(state.generation, holders)}
    })
  }

  /** Under the lock: runs `undo` (which ends this process's override and its session) and takes
   *  this process off the stack; the newest holder left then applies its own override again. */
  async leave(undo: () => Promise<void>): Promise<void> {
    let failure: {error: unknown} | undefined
    await this.change(async (state) => {
      try {
        await undo()
      } catch (error) {
        failure = {error} // it leaves all the same: a holder that is gone must never stay on top
      }
      return {holders: state.holders.filter((holder) => holder.pid !== this.me.pid), key: ''}
    })
    if (failure) throw failure.error
  }

  /** Runs `work` on the stack under its lock (waiting while another holder changes it); the
   *  holders it returns are written back with the generation advanced. */
  private async change(
    work: (state: HoldState<T>) => Promise<{holders: Array<HoldEntry<T>>; key: string} | {key: string}>,
  ): Promise<string> {
    const release = await this.lock()
    try {
      const state = this.read()
      const outcome = await work(state)
      if ('holders' in outcome && outcome.holders.length === 0)
        removeQuietly(this.path) // the last one left
      else if ('holders' in outcome) {
        const next = {generation: state.generation + 1, holders: outcome.holders}
        writeAtomic(this.path, `${JSON.stringify(next)}\n`, {mode: 0o600, private: true})
      }
      return outcome.key
    } finally {
      release()
    }
  }

  private async lock(): Promise<() => void> {
    const until = Date.now() + LOCK_WAIT_MS
    for (;;) {
      try {
        return takeLock(this.location, `${this.path}.lock`, 'tapir:resize --hold', (holder) => new LockBusy(`pid ${holder.pid}`, 'local'))
      } catch (error) {
        if (!(error instanceof LockBusy)) throw error
        if (Date.now() >= until)
          throw new TapirError(
            `Another tapir:resize --hold (${error.message}) kept the viewport holds of this session locked for ${LOCK_WAIT_MS / 1000} s. Try again.`,
            'local',
          )
      }
      await new Promise((resolve) => setTimeout(resolve, LOCK_RETRY_MS))
    }
  }
}
