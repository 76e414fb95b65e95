import {readFileSync} from 'node:fs'
import {isJsonObject} from '../shape.js'
import {writeAtomic} from '../write-atomic.js'

// find's qN handles on an app with no package. The package keeps a handle's predicate in the app;
// here the app keeps nothing of tapir's, so the predicate is kept beside the session file (one
// small JSON file, `<session>.handles.json`), and every use of the handle runs it again over the
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
const MAX_FILE_BYTES = 1_000_000

const inMemory: Stored = {next: 1, handles: {}}

export class HandleStore {
  constructor(private readonly sessionFile: string | undefined) {}

  private get path(): string | undefined {
    return this.sessionFile === undefined ? undefined : `${this.sessionFile}.handles.json`
  }

  private read(): Stored {
    const path = this.path
    if (path === undefined) return inMemory
    try {
      const text = readFileSync(path, 'utf8')
      if (text.length > MAX_FILE_BYTES) return {next: 1, handles: {}}
      const parsed: unknown = JSON.parse(text)
      if (isJsonObject(parsed) && typeof parsed.next === 'number' && isJsonObject(parsed.handles)) {
        const handles: Record<string, Predicate> = {}
        for (const [ref, value] of Object.entries(parsed.handles)) {
          const predicate = predicateOf(value)
          if (predicate !== undefined) handles[ref] = predicate
        }
        return {next: parsed.next, handles}
      }
    } catch {
      // No handle minted yet, or a file tapir did not write: start afresh.
    }
    return {next: 1, handles: {}}
  }

  /** A new qN for the predicate. */
  mint(predicate: Predicate): string {
    const stored = this.read()
    const ref = `q${stored.next}`
    const handles = {...stored.handles, [ref]: predicate}
    const names = Object.keys(handles)
    for (const old of names.slice(0, Math.max(0, names.length - MAX_HANDLES))) delete handles[old]
    const next = {next: stored.next + 1, handles}
    const path = this.path
    if (path === undefined) Object.assign(inMemory, next)
    else writeAtomic(path, `${JSON.stringify(next)}\n`, {mode: 0o600, private: true})
    return ref
  }

  /** The predicate a qN was minted for, or undefined when this session never minted it. */
  predicate(ref: string): Predicate | undefined {
    const found = this.read().handles[ref]
    return isJsonObject(found) ? found : undefined
  }
}
