import {isJsonObject} from '../shape.js'
import type {SharedState} from '../verbs/types.js'

// find's qN handles on an app with no package. The package keeps a handle's predicate in the app;
// here the app keeps nothing of tapir's, so the predicate is kept beside the session file (one
// small JSON file, `<session>.handles.json`, shared by every tapir process on the session and
// changed only under its lock: session/sidecar-state.ts), and every use of the handle runs it again over the
// semantics tree as it is then: the handle names whatever node matches now, as the package's does.

export interface Predicate {
  readonly text?: string
  readonly contains?: string
  readonly semanticsLabel?: string
  /** The eN the search was scoped to. */
  readonly within?: string
}

const PREDICATE_KEYS = ['text', 'contains', 'semanticsLabel', 'within'] as const

/** A kept predicate as written: only its known keys, each a string. */
function predicateOf(value: unknown): Predicate | undefined {
  if (!isJsonObject(value)) return undefined
  const predicate: {-readonly [K in keyof Predicate]: Predicate[K]} = {}
  for (const key of PREDICATE_KEYS) {
    const given = value[key]
    if (typeof given === 'string') predicate[key] = given
    else if (given !== undefined) return undefined
  }
  return predicate
}

interface Stored {
  next: number
  handles: Record<string, Predicate>
}

/** The most handles kept; the oldest go first, as a ring. */
const MAX_HANDLES = 1000

/** What the file holds, as far as it is a handle file; anything else starts afresh. */
function storedOf(parsed: unknown): Stored {
  if (isJsonObject(parsed) && typeof parsed.next === 'number' && Number.isSafeInteger(parsed.next) && isJsonObject(parsed.handles)) {
    const handles: Record<string, Predicate> = {}
    for (const [ref, value] of Object.entries(parsed.handles)) {
      const predicate = predicateOf(value)
      if (predicate !== undefined) handles[ref] = predicate
    }
    return {next: parsed.next, handles}
  }
  return {next: 1, handles: {}}
}

/** The next state with a new qN for the predicate, and that qN. */
function minted(stored: Stored, predicate: Predicate): {state: Stored; answer: string} {
  const ref = `q${stored.next}`
  const handles = {...stored.handles, [ref]: predicate}
  const names = Object.keys(handles)
  for (const old of names.slice(0, Math.max(0, names.length - MAX_HANDLES))) delete handles[old]
  return {state: {next: stored.next + 1, handles}, answer: ref}
}

/** Handles with no session behind them (a context with no session file): this process's own. */
const inMemory: Stored = {next: 1, handles: {}}

export class HandleStore {
  /** `shared`: the session's handle file, read and changed by every tapir process on the session. */
  constructor(private readonly shared: SharedState | undefined) {}

  /** A new qN for the predicate. Minted under the file's lock: finds run by several processes
   *  at once each get their own qN, and none overwrites another's. */
  async mint(predicate: Predicate): Promise<string> {
    if (this.shared === undefined) {
      const {state, answer} = minted(inMemory, predicate)
      Object.assign(inMemory, state)
      return answer
    }
    return this.shared.update((current) => minted(storedOf(current), predicate))
  }

  /** The predicate a qN was minted for, or undefined when this session never minted it. */
  predicate(ref: string): Predicate | undefined {
    const stored = this.shared === undefined ? inMemory : storedOf(this.shared.read())
    return Object.hasOwn(stored.handles, ref) ? stored.handles[ref] : undefined
  }
}
