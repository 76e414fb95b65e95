import {TapirError, type Words} from '../errors.js'
import {isJsonObject} from '../shape.js'
import {ExplainedError} from './explained-error.js'
import type {Input, RefTracker, Result} from './types.js'

/** What a widget was when tapir saw its ref: its role and label in the snapshot. */
export interface SeenWidget {
  role: string
  label: string
}

/** `- button "Sync now" [ref=e7]`: a snapshot line with a ref, its role and (quoted) label. */
const REF_LINE = /^\s*- ([a-z][\w-]*)(?: "((?:[^"\\]|\\.)*)")?.*?\[ref=(e\d+)\]/
const MAX_REMEMBERED = 10_000
const MAX_LINE = 2000

/**
 * The refs tapir has seen in the snapshots that passed through this context (a CLI process, a
 * `tapir:run`, an MCP server), each with the role and label it had when first seen. When the app
 * no longer knows a ref, the widgets the caller plausibly meant are those that now have the same
 * role and label: never refs that merely look alike.
 */
export class RefMemory implements RefTracker {
  private readonly minted = new Map<string, SeenWidget>()
  private onScreen: Array<SeenWidget & {ref: string}> = []

  /** Remembers the refs of a result's snapshot, if it carries one. */
  note(result: Result): void {
    const snapshot = isJsonObject(result) ? result.snapshot : undefined
    if (typeof snapshot !== 'string') return
    const lines: Array<SeenWidget & {ref: string}> = []
    for (const line of snapshot.split('\n')) {
      // A line longer than any widget's is not read: the pattern would take too long on it.
      const match = line.length > MAX_LINE ? null : REF_LINE.exec(line)
      const [, role, label = '', ref] = match ?? []
      if (role === undefined || ref === undefined) continue
      const seen = {role, label: label.replace(/\\(.)/g, '$1')}
      lines.push({ref, ...seen})
      if (!this.minted.has(ref) && this.minted.size < MAX_REMEMBERED) this.minted.set(ref, seen)
    }
    if (lines.length > 0) this.onScreen = lines
  }

  /** What the ref was when tapir saw it. */
  seen(ref: string): SeenWidget | undefined {
    return this.minted.get(ref)
  }

  /** The refs on the screen tapir saw last that have the role and label `ref` had. */
  sameAs(ref: string): string[] {
    const seen = this.minted.get(ref)
    if (!seen) return []
    return this.onScreen
      .filter((entry) => entry.ref !== ref && entry.role === seen.role && entry.label === seen.label)
      .map((entry) => entry.ref)
  }

  /** An app's "not found in registry" for a ref, with suggestions only from what tapir saw: the
   *  app's own (neighbours by spelling) are dropped unless they are such a widget. */
  explain(error: unknown, input: Input): unknown {
    if (!(error instanceof TapirError) || error.envelopeType !== 'not_found' || !/not found in registry/.test(error.message)) return error
    const envelope = error.details?.envelope
    if (!isJsonObject(envelope)) return error
    const ref = typeof envelope.widget_path === 'string' ? envelope.widget_path : undefined
    if (ref === undefined || !Object.values(input).includes(ref)) return error
    const seen = this.seen(ref)
    const details = {...error.details, envelope: {...envelope, suggestions: this.sameAs(ref), ...(seen ? {seen} : {})}}
    return new UnknownRef(error.message, details, ref, seen)
  }
}

/** The app's "not found in registry" for a ref, its suggestions replaced by what tapir saw. */
export class UnknownRef extends ExplainedError {
  constructor(
    message: string,
    details: Record<string, unknown>,
    readonly ref: string,
    readonly seenAs: SeenWidget | undefined,
  ) {
    super(message, details)
  }

  /** What tapir knows of the ref, and the way to a fresh one when no widget is like it now. */
  fix(words: Words, suggested: boolean): string {
    const fresh = `${words.run} ${words.call('snap')} for fresh refs.`
    if (!this.seenAs) return ` tapir never saw ${this.ref} in a snapshot: ${fresh.charAt(0).toLowerCase()}${fresh.slice(1)}`
    const was = ` When tapir saw it, ${this.ref} was ${this.seenAs.role} "${this.seenAs.label}"`
    return suggested ? `${was}.` : `${was}, and the last screen tapir saw had no widget like it. ${fresh}`
  }
}
