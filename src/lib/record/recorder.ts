import {TapirError, messageOf} from '../errors.js'
import {NOT_ON_THE_APP} from '../run/plan.js'
import {isJsonObject} from '../shape.js'
import {defaultFor} from '../verbs/input.js'
import type {CallRecorder, Input, ParamValue, Result, Verb, VerbCall} from '../verbs/types.js'
import {waitVerbs} from '../verbs/wait-verbs.js'
import {locate, viewportOf, widgetOf, type Locator, type Widget} from './locate.js'
import {appendToRecording} from './recording-file.js'
import {bindingName, comment, quoteWord, secretVariable, stepLine} from './render.js'
import {MAX_FINDS, type Predicates, type RecordingState, type RecordingStore} from './state.js'

/** Params that shape the reply, not what the call does to the app: left out of the steps. */
const REPLY_ONLY = new Set(['includeSnapshot', 'snapshot'])
/** Params that name a widget by ref: each becomes a find step and `@name`. */
const REF_PARAMS = ['ref', 'startRef', 'endRef']
/** Of the verbs that act, the ones the recording leaves out: evaluate is a read to a person
 *  reading the flow, and the rest cannot be a tapir:run step. */
const LEFT_OUT = new Set(['evaluate', ...NOT_ON_THE_APP])
const TEXT_VERBS = new Set(['fill', 'type'])
const OBSCURING = /^[•*●]+$/
const SECRET_LABEL = /pass(word|code|phrase)|secret|\bpin\b|token/i

/** Whether a verb's successful calls become steps: every verb that acts on the app, and the waits. */
export function isRecorded(verb: Verb): boolean {
  return (verb.kind !== 'read' || waitVerbs.includes(verb)) && !LEFT_OUT.has(verb.name)
}

/** Whether a recording looks at a call of this verb at all: what it records, what it leaves out
 *  with a comment, and the finds whose handles it may meet. Other reads never touch it. */
export function isSeen(verb: Verb): boolean {
  return verb.kind !== 'read' || verb.name === 'find' || isRecorded(verb)
}

/** Appends each successful action and wait to the recording `store` names, its refs turned into
 *  find steps bound with --as, and keeps what the session's own finds looked for. */
export class Recorder implements CallRecorder {
  constructor(private readonly store: RecordingStore) {}

  async begin(verb: Verb, input: Input, call: VerbCall): Promise<((result: Result) => Promise<void>) | undefined> {
    if (verb.name === 'find') return (result) => Promise.resolve(this.rememberFind(input, result))
    if (!isRecorded(verb)) {
      if (verb.kind === 'read') return undefined
      return (_result) => this.append([comment(`left out: ${verb.name} (${verb.name === 'evaluate' ? 'a read' : 'not a tapir:run step'})`)])
    }
    const state = this.store.load()
    if (!state) return undefined
    if (state.viewport === undefined) {
      const app = await call.app()
      const appPackage = (await app.appPackage(call.deadline).catch(() => undefined)) ?? state.appPackage
      this.store.save({...state, appPackage, viewport: await viewportOf(app, call.deadline)})
    }
    const locators = new Map<string, Locator>()
    for (const name of REF_PARAMS) {
      const ref = input[name]
      if (typeof ref === 'string' && ref !== '') locators.set(name, await this.locatorFor(ref, state, call))
    }
    return async (result) => {
      const lines = await this.stepsFor(verb, input, result, locators, call)
      await this.append(lines)
    }
  }

  private rememberFind(input: Input, result: Result): void {
    const state = this.store.load()
    const answer = result as {ref?: unknown; matched?: unknown; matchCount?: unknown}
    if (!state || answer.matched !== true || typeof answer.ref !== 'string') return
    // A find scoped by an eN cannot be written as it was: its handle is located like any ref.
    if (typeof input.within === 'string') return
    const predicates: Predicates = {}
    for (const name of ['key', 'semanticsLabel', 'text', 'contains'] as const)
      if (typeof input[name] === 'string' && input[name] !== '') predicates[name] = input[name]
    const finds = Object.entries(state.finds).slice(-(MAX_FINDS - 1))
    const matches = typeof answer.matchCount === 'number' ? answer.matchCount : 1
    this.store.save({...state, finds: Object.fromEntries([...finds, [answer.ref, {...predicates, matches}]])})
  }

  private async locatorFor(ref: string, state: RecordingState, call: VerbCall): Promise<Locator> {
    const app = await call.app()
    const known = state.finds[ref]
    if (known) {
      const {matches, ...predicates} = known
      const widget = await widgetOf(app, ref, call.deadline).catch(() => undefined)
      return {predicates, matches, pinned: true, ...(widget ? {widget} : {})}
    }
    return locate(app, ref, call.deadline)
  }

  private async stepsFor(verb: Verb, input: Input, result: Result, locators: Map<string, Locator>, call: VerbCall): Promise<string[]> {
    const state = this.store.load()!
    const names = new Set(state.names)
    const lines: string[] = []
    const flags: Array<[string, ParamValue, boolean?]> = []
    const shown: Record<string, ParamValue> = {}
    const untilFlags: Array<[string, ParamValue]> = []
    let replayable = true
    for (const param of verb.params) {
      const value = input[param.name]
      if (value === undefined || param.mcpOnly || REPLY_ONLY.has(param.name)) continue
      if (value === defaultFor(param, 'mcp') || value === defaultFor(param, 'cli')) continue
      if (verb.name === 'tap' && (param.name === 'until' || param.name === 'untilTimeoutMs')) {
        untilFlags.push([param.name, value]) // a wait step of its own below
        shown[param.name] = value
        continue
      }
      const locator = locators.get(param.name)
      if (locator) {
        if (Object.keys(locator.predicates).length === 0) {
          lines.push(comment(`not replayable: ${locator.note ?? 'the widget could not be located'}`))
          replayable = false
          continue
        }
        const name = bindingName(locator.widget?.label || Object.values(locator.predicates)[0] || 'widget', names)
        names.add(name)
        if (locator.note) lines.push(comment(locator.note))
        const find: Array<[string, ParamValue]> = Object.entries(locator.predicates).filter(
          (entry): entry is [string, string] => entry[1] !== undefined,
        )
        lines.push(
          stepLine('find', [...find, ['as', name], ...(locator.matches > 1 ? [['matches', locator.matches] as [string, number]] : [])]),
        )
        flags.push([param.name, `@${name}`])
        shown[param.name] = `@${name}`
        continue
      }
      if (TEXT_VERBS.has(verb.name) && param.name === 'text' && typeof value === 'string') {
        const secret = await this.secretField(locators.get('ref')?.widget, input.ref, call)
        if (secret) {
          const variable = secretVariable(secret)
          if (!state.secrets.includes(variable)) state.secrets = [...state.secrets, variable]
          flags.push(['text', `\${env.${variable}}`, true])
          shown.text = `\${env.${variable}}`
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
    if (verb.name === 'tap' && typeof input.until === 'string') {
      const matched = isJsonObject(result) && result.untilMatched !== false
      const wait = renderable('wait', [
        ['text', input.until],
        ['timeoutMs', typeof input.untilTimeoutMs === 'number' ? input.untilTimeoutMs : 3000],
      ])
      if (matched && wait) lines.push(wait)
      else lines.push(comment(`until ${JSON.stringify(input.until)} did not match when recorded: no wait step`))
    }
    state.names = [...names]
    this.store.save(state)
    return lines
  }

  /** The field's name when the text typed into it is a secret: the app shows it obscured, or its label says password. */
  private async secretField(before: Widget | undefined, ref: ParamValue | undefined, call: VerbCall): Promise<string | undefined> {
    let widget = before
    if (typeof ref === 'string') widget = (await widgetOf(await call.app(), ref, call.deadline).catch(() => undefined)) ?? before
    if (!widget) return undefined
    const obscured = (widget.value !== null && OBSCURING.test(widget.value)) || SECRET_LABEL.test(widget.label)
    return obscured ? (widget.field ?? widget.label) : undefined
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

/** The step line, or undefined when a value cannot be one line. */
function renderable(verb: string, flags: Array<[string, ParamValue, boolean?]>): string | undefined {
  try {
    for (const [, value] of flags) if (typeof value === 'string') quoteWord(value)
    return stepLine(verb, flags)
  } catch {
    return undefined
  }
}
