import {TapirError, messageOf} from '../errors.js'
import {isJsonObject} from '../shape.js'
import {defaultFor, defaultOf} from '../verbs/input.js'
import type {CallRecorder, Input, ParamValue, RecordRule, Result, Verb, VerbCall} from '../verbs/types.js'
import {locate, type Locator, type Sight} from './locate.js'
import {appendToRecording} from './recording-file.js'
import {bindingName, comment, quoteTemplate, quoteWord, secretVariable, stepLine, type Flag} from './render.js'
import {candidatesOf, isWholeTree, MAX_CANDIDATES, MAX_NODES, screenNodes, snapshotOf} from './screen.js'
import {MAX_FINDS, type Predicates, type RecordingState, type RecordingStore} from './state.js'

/** A field whose label (or form field name) says it takes a secret. */
export const SECRET_LABEL = /pass(word|code|phrase)|secret|\bpin\b|pin[ _-]?code|token/i
const PREDICATE_NAMES = ['key', 'semanticsLabel', 'text', 'contains'] as const

/** The header's package for an app driven with no package in it (docs/zero-install.md). */
const ZERO_INSTALL_PACKAGE = 'none (driven zero-install)'

/** Whether a verb's successful calls become steps (its `record` rule). */
export function isRecorded(verb: Verb): boolean {
  return verb.record.as === 'step'
}

/** Whether a recording looks at a call of this verb at all: what it records, what it leaves out
 *  with a comment, and the reads whose answers name widgets. Other reads never touch it. */
export function isSeen(verb: Verb): boolean {
  return verb.record.as !== 'nothing'
}

/**
 * Appends each successful action and wait to the recording `store` names, its refs turned into
 * find or observe steps bound with --as. It never calls the app: it keeps what the session
 * received (the last snapshot of the whole screen, observe's candidates, finds' predicates and
 * answers) and names a widget from those, so the session sees the same refs, handles and screen
 * as without a recording.
 */
export class Recorder implements CallRecorder {
  constructor(private readonly store: RecordingStore) {}

  begin(verb: Verb, input: Input, call: VerbCall): Promise<((result: Result) => Promise<void>) | undefined> {
    const {record} = verb
    if (record.as === 'read') return Promise.resolve((result) => Promise.resolve(this.keep(verb, input, result, call)))
    if (record.as === 'nothing') return Promise.resolve(undefined)
    if (record.as === 'comment') return Promise.resolve((_result) => this.append([comment(`left out: ${verb.name} (${record.why})`)]))
    const state = this.store.load()
    if (!state) return Promise.resolve(undefined)
    return Promise.resolve(async (result) => {
      const app = await call.app().catch(() => undefined)
      const appPackage = await app?.appPackage(call.deadline).catch(() => undefined)
      // No package on an isolate that is not restarting: the call was driven zero-install. Both
      // are read from the isolate the call already found, never asked of the app for this.
      const zeroInstall = app !== undefined && appPackage === undefined && !(await app.restarting(call.deadline).catch(() => true))
      // Named from what the session saw before the action (`state` as it was then): its own
      // snapshot may show another screen. Each param that names a widget by ref becomes a find
      // or observe step and `@name`; a replay's observe lists only the nodes on screen when
      // driven zero-install.
      const seen = new Map<string, {locator: Locator; sight?: Sight}>()
      for (const {name, widgetRef} of verb.params) {
        const ref = input[name]
        if (widgetRef && typeof ref === 'string' && ref !== '') seen.set(name, locate(ref, state, {onScreenOnly: zeroInstall}))
      }
      const lines = this.stepsFor(verb, record, input, result, seen, call, zeroInstall ? ZERO_INSTALL_PACKAGE : appPackage)
      this.keep(verb, input, result, call)
      await this.append(lines)
    })
  }

  /** What a call showed of the app: a snapshot of the whole screen, observe's candidates, a find's handle. */
  private keep(verb: Verb, input: Input, result: Result, call: VerbCall): void {
    const state = this.store.load()
    if (!state) return
    const snapshot = snapshotOf(result)
    if (snapshot !== undefined && (verb.name !== 'snap' || isWholeTree(input))) {
      const nodes = screenNodes(snapshot)
      state.screen = {
        complete: !(verb.name === 'snap' && input.interactiveOnly === true) && nodes.length < MAX_NODES,
        nodes,
        after: state.actions,
      }
    }
    if (verb.name === 'observe') {
      const kept = Object.entries(state.candidates).slice(-MAX_CANDIDATES)
      state.candidates = Object.fromEntries([...kept, ...candidatesOf(result, state.actions)].slice(-MAX_CANDIDATES))
    }
    if (verb.name === 'find') this.rememberFind(state, input, result, call)
    this.store.save(state)
  }

  private rememberFind(state: RecordingState, input: Input, result: Result, call: VerbCall): void {
    const answer = result as {ref?: unknown; matched?: unknown; matchCount?: unknown}
    if (answer.matched !== true || typeof answer.ref !== 'string') return
    // A find scoped by an eN cannot be written as it was (a replay has no eN): not kept.
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
    state.finds = Object.fromEntries([...finds, [answer.ref, entry]])
  }

  private stepsFor(
    verb: Verb,
    {secret, waitAfter}: Extract<RecordRule, {as: 'step'}>,
    input: Input,
    result: Result,
    seen: Map<string, {locator: Locator; sight?: Sight}>,
    call: VerbCall,
    appPackage: string | undefined,
  ): string[] {
    // A recording stopped while the call ran gets nothing of it.
    const state = this.store.load()
    if (!state) return []
    if (appPackage) state.appPackage = appPackage
    state.actions += 1
    const names = new Set(state.names)
    const lines: string[] = []
    const flags: Flag[] = []
    const shown: Record<string, ParamValue> = {}
    const untilFlags: Flag[] = []
    let unwritten: string | undefined
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
        const {locator, sight} = ref
        if (locator.kind === 'none') {
          lines.push(comment(`not replayable: ${locator.why}`))
          unwritten ??= `${verb.name} on ${String(value)}`
          continue
        }
        const name = bindingName(bindingLabel(locator, sight), names)
        names.add(name)
        if (locator.note) lines.push(comment(locator.note))
        lines.push(locatorStep(locator, name))
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
        const field = secretField(seen.get('ref'), input.ref, result)
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
    const held = heldFlags(verb.name, secret, flags, result)
    if (held.note) lines.push(comment(held.note))
    const line = renderable(verb.name, [...flags, ...held.flags])
    const origin =
      call.origin === 'mcp'
        ? `MCP ${verb.tool} ${JSON.stringify(shown)}`
        : `CLI ${renderable(`tapir:${verb.name}`, [...flags, ...untilFlags]) ?? verb.name}`
    lines.unshift(comment(`from ${origin}`))
    if (line === undefined) unwritten ??= `${verb.name} (a value holds a line break)`
    if (unwritten !== undefined || line === undefined)
      lines.push(comment(`not replayable: ${line === undefined ? `${verb.name} (a value holds a line break)` : `${line} (see above)`}`))
    else lines.push(line)
    const until = waitAfter && untilFlags.find(([name]) => name === waitAfter.text)
    if (waitAfter && until) {
      const matched = isJsonObject(result) && result.untilMatched !== false
      const timeoutMs = input[waitAfter.timeoutMs]
      const wait = renderable('wait', [
        ['text', until[1], until[2]],
        ['timeoutMs', typeof timeoutMs === 'number' ? timeoutMs : Number(defaultOf(verb.params, waitAfter.timeoutMs))],
      ])
      if (matched && wait) lines.push(wait)
      else
        lines.push(
          comment(`${waitAfter.text} ${until[2] ? String(until[1]) : JSON.stringify(until[1])} did not match when recorded: no wait step`),
        )
    }
    // After an action no step was written for, the app is not where a replay would be: what
    // follows is kept as comments, never as steps that would run against another screen.
    const before = state.unwritten
    const written =
      before === undefined
        ? lines
        : lines.map((entry) => (entry.startsWith('#') ? entry : comment(`after ${before}, not written: ${entry}`)))
    state.unwritten = before ?? unwritten
    // Replay needs exactly the variables its steps read.
    for (const entry of written)
      if (!entry.startsWith('#'))
        for (const [, variable = ''] of entry.matchAll(/\$\{\s*env\.([A-Za-z0-9_]+)\s*\}/g))
          if (!state.secrets.includes(variable)) state.secrets = [...state.secrets, variable]
    state.names = [...names]
    this.store.save(state)
    return written
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

/** The step that binds the widget to `@name`. */
function locatorStep(locator: Exclude<Locator, {kind: 'none'}>, name: string): string {
  if (locator.kind === 'observe')
    return stepLine('observe', [
      ['roles', locator.role],
      ['as', name],
      ['label', locator.label],
      ...(locator.of > 1
        ? ([
            ['nth', locator.nth],
            ['matches', locator.of],
          ] as Flag[])
        : []),
    ])
  const written = locator.written ?? {}
  const find: Flag[] = Object.entries(locator.predicates)
    .filter((entry): entry is [string, string] => entry[1] !== undefined)
    .map(([predicate, text]) => {
      const template = written[predicate as keyof Predicates]
      return template === undefined ? [predicate, text] : [predicate, template, true]
    })
  return stepLine('find', [...find, ['as', name], ...(locator.matches > 1 ? [['matches', locator.matches] as Flag] : [])])
}

/** What a binding is named after: the widget's label as the session saw it, never a value read
 *  from the environment. */
function bindingLabel(locator: Exclude<Locator, {kind: 'none'}>, sight: Sight | undefined): string {
  return locator.kind === 'observe' ? locator.label : sight?.label || 'widget'
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
 * The field's name when the text typed into it is a secret, from what the session saw: a
 * snapshot showed its value obscured (before the call, or in the call's own snapshot), or its
 * label, or the label of the field the app says it wrote, says password, passcode, PIN, secret
 * or token. A field the session never saw is a secret too: a recording never guesses a value is
 * not one.
 */
function secretField(seen: {sight?: Sight} | undefined, ref: ParamValue | undefined, result: Result): string | undefined {
  const sight = seen?.sight
  const target =
    isJsonObject(result) && isJsonObject(result.effect) && isJsonObject(result.effect.target) ? result.effect.target.label : undefined
  const after = snapshotOf(result)
  const shownObscured =
    after !== undefined &&
    screenNodes(after).some(
      (node) =>
        node.obscured === true && (node.ref === ref || (sight !== undefined && node.label === sight.label && node.role === 'textbox')),
    )
  const label = sight?.label || (typeof target === 'string' ? target : '')
  if (!sight || sight.label === '') return label || 'field'
  if (sight.obscured || shownObscured || SECRET_LABEL.test(sight.label) || (typeof target === 'string' && SECRET_LABEL.test(target)))
    return label || 'field'
  return undefined
}

/**
 * When the field held something else than the text typed (a formatter's upper case), the step's
 * `--holds=<what it held>`, so its replay checks what the recording saw (src/lib/run/holds.ts).
 * Never for a secret or a `${env.NAME}` value: what the field held may be the secret in another
 * case, so the step is written as it was and a comment says a strict replay fails it.
 */
function heldFlags(verb: string, secret: string | undefined, flags: readonly Flag[], result: Result): {flags: Flag[]; note?: string} {
  const effect = isJsonObject(result) && isJsonObject(result.effect) ? result.effect : undefined
  if (secret === undefined || effect?.verified !== false || typeof effect.value !== 'string') return {flags: []}
  const typed = flags.find(([name]) => name === secret)
  if (typed === undefined || typed[2] !== true) return {flags: [['holds', effect.value]]}
  return {
    flags: [],
    note: `${verb} did not take when recorded; what the field held is not written (it may hold the secret), so tapir test fails this step`,
  }
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
