import {TapirError, messageOf} from '../errors.js'
import {isJsonObject} from '../shape.js'
import {defaultFor} from '../verbs/input.js'
import type {CallRecorder, Input, ParamValue, RecordRule, Result, Verb, VerbCall} from '../verbs/types.js'
import {describe, locate, TraceFreeLookup, type Locator, type Widget} from './locate.js'
import {appendToRecording} from './recording-file.js'
import {bindingName, comment, quoteTemplate, quoteWord, secretVariable, stepLine, type Flag} from './render.js'
import {MAX_FINDS, type Predicates, type RecordingState, type RecordingStore} from './state.js'

/** Params that name a widget by ref: each becomes a find step and `@name`. */
const REF_PARAMS = ['ref', 'startRef', 'endRef']
/** A field whose label (or form field name) says it takes a secret. */
export const SECRET_LABEL = /pass(word|code|phrase)|secret|\bpin\b|pin[ _-]?code|token/i
const PREDICATE_NAMES = ['key', 'semanticsLabel', 'text', 'contains'] as const

/** Whether a verb's successful calls become steps (its `record` rule). */
export function isRecorded(verb: Verb): boolean {
  return verb.record.as === 'step'
}

/** Whether a recording looks at a call of this verb at all: what it records, what it leaves out
 *  with a comment, and the finds whose handles it may meet. Other reads never touch it. */
export function isSeen(verb: Verb): boolean {
  return verb.record.as !== 'nothing'
}

/** What the recorder learnt of one ref before the action ran. */
interface Seen {
  locator: Locator
}

/**
 * Appends each successful action and wait to the recording `store` names, its refs turned into
 * find steps bound with --as, and keeps what the session's own finds looked for. It reads the
 * app only through the app's trace-free lookup, before the action runs, so the widget a step is
 * pinned to is the one the action acted on and the session sees the same refs, handles and
 * screen as without a recording. An app without that lookup is read not at all.
 */
export class Recorder implements CallRecorder {
  constructor(private readonly store: RecordingStore) {}

  async begin(verb: Verb, input: Input, call: VerbCall): Promise<((result: Result) => Promise<void>) | undefined> {
    const {record} = verb
    if (record.as === 'handles') return (result) => Promise.resolve(this.rememberFind(input, result, call))
    if (record.as === 'nothing') return undefined
    if (record.as === 'comment') return (_result) => this.append([comment(`left out: ${verb.name} (${record.why})`)])
    const state = this.store.load()
    if (!state) return undefined
    const app = await call.app()
    const lookup = await TraceFreeLookup.of(app, call.deadline).catch(() => undefined)
    if (state.viewport === undefined) {
      const appPackage = (await app.appPackage(call.deadline).catch(() => undefined)) ?? state.appPackage
      const viewport = lookup ? await lookup.viewport().catch(() => 'unknown') : 'unknown'
      this.store.save({...state, appPackage, viewport, traceFree: lookup !== undefined})
    }
    const seen = new Map<string, Seen>()
    for (const name of REF_PARAMS) {
      const ref = input[name]
      if (typeof ref !== 'string' || ref === '') continue
      // No live widget: the action fails as it would without a recording, and nothing is written.
      // Should it succeed all the same, the file says there was no widget to write a step for.
      const locator = (await this.locatorFor(ref, state, lookup)) ?? {
        predicates: {},
        matches: 0,
        pinned: false,
        note: `${ref} named no live widget when the action ran`,
      }
      seen.set(name, {locator})
    }
    return async (result) => this.append(this.stepsFor(verb, record, input, result, seen, call))
  }

  private rememberFind(input: Input, result: Result, call: VerbCall): void {
    const state = this.store.load()
    const answer = result as {ref?: unknown; matched?: unknown; matchCount?: unknown}
    if (!state || answer.matched !== true || typeof answer.ref !== 'string') return
    // A find scoped by an eN cannot be written as it was: its handle is located like any ref.
    if (typeof input.within === 'string') return
    const predicates: Predicates = {}
    const written: Predicates = {}
    for (const name of PREDICATE_NAMES) {
      const value = input[name]
      if (typeof value !== 'string' || value === '') continue
      predicates[name] = value
      const template = asWritten(call, name, value)
      if (template !== undefined) written[name] = template
    }
    const finds = Object.entries(state.finds).slice(-(MAX_FINDS - 1))
    const matches = typeof answer.matchCount === 'number' ? answer.matchCount : 1
    const entry = {...predicates, matches, ...(Object.keys(written).length > 0 ? {written} : {})}
    this.store.save({...state, finds: Object.fromEntries([...finds, [answer.ref, entry]])})
  }

  /** The locator for a ref, read before the action runs; undefined when the ref names no live widget. */
  private async locatorFor(ref: string, state: RecordingState, lookup: TraceFreeLookup | undefined): Promise<Locator | undefined> {
    const known = state.finds[ref]
    if (!lookup) {
      if (known) {
        const {matches, written: _written, ...predicates} = known
        return {predicates, matches, pinned: true}
      }
      return {
        predicates: {},
        matches: 0,
        pinned: false,
        note: `the app registers no trace-free lookup, so ${ref} cannot be named without changing the session`,
      }
    }
    let widget: Widget | undefined
    try {
      widget = await lookup.widget(ref)
    } catch (error) {
      return {predicates: {}, matches: 0, pinned: false, note: `the app could not say which widget ${ref} names (${messageOf(error)})`}
    }
    if (!widget) return undefined
    if (known) {
      const {matches, written: _written, ...predicates} = known
      return {predicates, matches, pinned: true, widget}
    }
    return locate(lookup, widget).catch((error: unknown) => ({
      predicates: {},
      matches: 0,
      pinned: false,
      widget,
      note: `the app could not say what matches the ${describe(widget)} (${messageOf(error)})`,
    }))
  }

  private stepsFor(
    verb: Verb,
    {secret, waitAfter}: Extract<RecordRule, {as: 'step'}>,
    input: Input,
    result: Result,
    seen: Map<string, Seen>,
    call: VerbCall,
  ): string[] {
    // A recording stopped while the call ran gets nothing of it.
    const state = this.store.load()
    if (!state) return []
    const names = new Set(state.names)
    const lines: string[] = []
    const flags: Flag[] = []
    const shown: Record<string, ParamValue> = {}
    const untilFlags: Flag[] = []
    let replayable = true
    for (const param of verb.params) {
      const value = input[param.name]
      if (value === undefined || param.mcpOnly || param.replyOnly) continue
      if (value === defaultFor(param, 'mcp') || value === defaultFor(param, 'cli')) continue
      const template = typeof value === 'string' ? asWritten(call, param.name, value) : undefined
      if (param.name === waitAfter?.text || param.name === waitAfter?.timeoutMs) {
        untilFlags.push(template === undefined ? [param.name, value] : [param.name, template, true])
        shown[param.name] = template ?? value
        continue
      }
      const ref = seen.get(param.name)
      if (ref) {
        const {locator} = ref
        if (Object.keys(locator.predicates).length === 0) {
          lines.push(comment(`not replayable: ${locator.note ?? 'the widget could not be located'}`))
          replayable = false
          continue
        }
        const known = typeof value === 'string' ? state.finds[value] : undefined
        const writtenPredicates = known?.written ?? {}
        const readable = Object.entries(locator.predicates).find(([name]) => !(name in writtenPredicates))?.[1]
        const name = bindingName(locator.widget?.label || readable || 'widget', names)
        names.add(name)
        if (locator.note) lines.push(comment(locator.note))
        const find: Flag[] = Object.entries(locator.predicates)
          .filter((entry): entry is [string, string] => entry[1] !== undefined)
          .map(([predicate, text]) => {
            const written = writtenPredicates[predicate as keyof Predicates]
            return written === undefined ? [predicate, text] : [predicate, written, true]
          })
        lines.push(stepLine('find', [...find, ['as', name], ...(locator.matches > 1 ? [['matches', locator.matches] as Flag] : [])]))
        flags.push([param.name, `@${name}`])
        shown[param.name] = `@${name}`
        continue
      }
      if (template !== undefined) {
        // From `${env.NAME}` in a tapir:run step: written as written, into whatever field it went.
        flags.push([param.name, template, true])
        shown[param.name] = template
        continue
      }
      if (param.name === secret && typeof value === 'string') {
        const field = secretField(seen.get('ref')?.locator)
        if (field !== undefined) {
          const placeholder = `\${env.${secretVariable(field)}}`
          flags.push([secret, placeholder, true])
          shown[secret] = placeholder
          continue
        }
      }
      flags.push([param.name, value])
      shown[param.name] = value
    }
    const line = renderable(verb.name, flags)
    const origin =
      call.origin === 'mcp'
        ? `MCP ${verb.tool} ${JSON.stringify(shown)}`
        : `CLI ${renderable(`tapir:${verb.name}`, [...flags, ...untilFlags]) ?? verb.name}`
    lines.unshift(comment(`from ${origin}`))
    if (!replayable || line === undefined)
      lines.push(comment(`not replayable: ${verb.name} ${line === undefined ? '(a value holds a line break)' : '(see above)'}`))
    else lines.push(line)
    const until = waitAfter && untilFlags.find(([name]) => name === waitAfter.text)
    if (waitAfter && until) {
      const matched = isJsonObject(result) && result.untilMatched !== false
      const timeoutMs = input[waitAfter.timeoutMs]
      const wait = renderable('wait', [
        ['text', until[1], until[2]],
        ['timeoutMs', typeof timeoutMs === 'number' ? timeoutMs : 3000],
      ])
      if (matched && wait) lines.push(wait)
      else
        lines.push(
          comment(`${waitAfter.text} ${until[2] ? String(until[1]) : JSON.stringify(until[1])} did not match when recorded: no wait step`),
        )
    }
    // Replay needs every variable a written template reads, as it needs the secrets.
    for (const line of lines)
      if (!line.startsWith('#'))
        for (const [, variable = ''] of line.matchAll(/\$\{\s*env\.([A-Za-z0-9_]+)\s*\}/g))
          if (!state.secrets.includes(variable)) state.secrets = [...state.secrets, variable]
    state.names = [...names]
    this.store.save(state)
    return lines
  }

  private async append(lines: string[]): Promise<void> {
    const state = this.store.load()
    if (!state) return
    try {
      appendToRecording(state, lines)
    } catch (error) {
      throw new TapirError(`The call succeeded, but the recording ${state.file} could not be written: ${messageOf(error)}`, 'local')
    }
  }
}

/** A value as the tapir:run step wrote it, when it came from `${env.NAME}`: `--name=<value>` or
 *  the value as its own word. */
function asWritten(call: VerbCall, name: string, value: string): string | undefined {
  for (const [given, written] of call.envWords ?? []) {
    const flag = `--${name}=`
    if (given === `${flag}${value}` && written.startsWith(flag)) return written.slice(flag.length)
    if (given === value) return written
  }
  return undefined
}

/**
 * The field's name when the text typed into it is a secret: the app shows it obscured, or its
 * label or form field says password, passcode, PIN, secret or token. Without the app's lookup
 * the widget is unknown, so whatever is typed counts as secret (a recording never guesses a
 * password is not one), named by the predicates of the find that named the field, if any.
 */
function secretField(locator: Locator | undefined): string | undefined {
  const widget = locator?.widget
  if (widget) {
    const says = [widget.label, widget.field ?? '', widget.key ?? ''].some((text) => SECRET_LABEL.test(text))
    return widget.obscured || says ? widget.field || widget.label || widget.key || 'field' : undefined
  }
  const named = Object.values(locator?.predicates ?? {}).filter((text): text is string => text !== undefined)
  return named.find((text) => SECRET_LABEL.test(text)) ?? named[0] ?? 'field'
}

/** The step line, or undefined when a value cannot be one line. */
function renderable(verb: string, flags: Flag[]): string | undefined {
  try {
    for (const [, value, placeholder] of flags) if (typeof value === 'string') (placeholder ? quoteTemplate : quoteWord)(value)
    return stepLine(verb, flags)
  } catch {
    return undefined
  }
}
