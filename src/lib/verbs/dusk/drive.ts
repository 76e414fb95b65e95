import {TapirError} from '../../errors.js'
import {anything, boolean, integer, list, object, optional, string, type Shape} from '../../shape.js'
import type {AppConnection} from '../../vm/app-connection.js'
import type {Deadline} from '../../vm/deadline.js'
import {answer, anyAnswer} from '../../vm/tapir-answers.js'
import {defaultOf} from '../input.js'
import {formatFor, writeAppImage} from '../screenshot-verb.js'
import type {Input, Result, Verb, VerbCall} from '../types.js'
import {filterSnapshot} from './snapshot-filter.js'
import {duskWireOf, planDuskCall, type DuskPlan} from './translate.js'

const snapAnswer = answer({snapshot: string})
/** console and exceptions: 0.0.1 answers `entries`. */
const entriesAnswer = answer({entries: list(object({time: optional(string)}))})
/** 0.0.1's reference names the image `bytes`; its code sent `base64`: either is read. */
const imageAnswer = answer({format: optional(string), bytes: optional(string), base64: optional(string)})
const evaluateAnswer = answer({result: optional(anything)})
/** ext_wait_find.dart `aiTestWaitForHandler`: `{matched: true, elapsedMs}`, or on a timeout the
 *  result `{matched: false, reason: 'timeout'}` (never an error). */
const waitAnswer = answer({matched: boolean, elapsedMs: optional(integer), reason: optional(string)})

/** 0.0.1's answer where it is not the shape of tapir's. */
const DUSK_ANSWERS: Readonly<Record<string, Shape<Result>>> = {
  console: entriesAnswer,
  exceptions: entriesAnswer,
  evaluate: evaluateAnswer,
  wait_for: waitAnswer,
}

/** Whether a verb calls the app's own package, so the package the app runs decides its wire. */
export function callsAppPackage(verb: Verb): boolean {
  return duskWireOf(verb) !== undefined && (verb.dispatch.startsWith('ext.tapir.') || verb.dispatch === 'vm:evaluate')
}

/** Runs a tapir verb against an app on Dusk 0.0.1: the call `planDuskCall` translates it to,
 *  and what tapir does itself around it. Prints what the app returned. */
export async function runOnDusk(verb: Verb, call: VerbCall, input: Input): Promise<Result> {
  const plan = planDuskCall(verb, input)
  const app = await call.app()
  if (plan.method === 'wait_for') return waitFor(app, plan.params, call.deadline)
  if (plan.method === 'screenshot') return screenshot(app, call, plan, input)
  const shape = DUSK_ANSWERS[plan.method] ?? verb.result ?? anyAnswer
  const result: Result = {...(await app.callDusk(plan.method, plan.params, shape, call.deadline))}
  return afterCall(verb, app, call.deadline, plan, result)
}

async function waitFor(app: AppConnection, params: Record<string, string>, deadline: Deadline): Promise<Result> {
  return {...(await app.callDusk('wait_for', params, waitAnswer, deadline))}
}

async function screenshot(app: AppConnection, call: VerbCall, plan: DuskPlan, input: Input): Promise<Result> {
  // The CLI picks the format from --output's extension, as it does for a tapir app.
  const params = {...plan.params, format: plan.params.format ?? formatFor(input)}
  const result = await app.callDusk('screenshot', params, imageAnswer, call.deadline)
  const base64 = result.bytes ?? result.base64
  if (base64 === undefined) throw new TapirError('The app sent a malformed answer to ext.dusk.screenshot: it holds no image.', 'app')
  if (typeof input.output !== 'string') return result
  return writeAppImage(call.cwd, {format: params.format, output: input.output}, base64, result)
}

function wantsSnapshot(inTapir: Input): boolean {
  if (inTapir.snapshot === 'full') return true
  if (inTapir.snapshot === 'none') return false
  return inTapir.includeSnapshot === true
}

async function afterCall(verb: Verb, app: AppConnection, deadline: Deadline, plan: DuskPlan, result: Result): Promise<Result> {
  const {inTapir} = plan
  switch (plan.method) {
    case 'snap': {
      const {snapshot} = result
      if (typeof snapshot === 'string') {
        result.snapshot = filterSnapshot(snapshot, {
          ...(typeof inTapir.within === 'string' ? {within: inTapir.within} : {}),
          ...(typeof inTapir.within === 'string' && typeof inTapir.depth === 'number' ? {depth: inTapir.depth} : {}),
          interactiveOnly: inTapir.interactiveOnly === true,
          ...(typeof inTapir.grep === 'string' && inTapir.grep !== '' ? {grep: inTapir.grep} : {}),
        })
      }
      return result
    }
    case 'exceptions':
      if (typeof inTapir.since === 'string') result.entries = entriesAfter(result.entries, inTapir.since)
      return result
    case 'evaluate':
      return {expression: plan.params.expression, result: asText(result.result)}
    case 'tap':
      if (typeof inTapir.until === 'string') {
        const timeoutMs = String(inTapir.untilTimeoutMs ?? defaultOf(verb.params, 'untilTimeoutMs'))
        result.untilMatched = (await waitFor(app, {text: inTapir.until, timeoutMs}, deadline)).matched
      }
  }
  const wire = duskWireOf(verb)
  if (wire?.on === 'driven' && wire.params.includeSnapshot?.rule === 'tapir' && wantsSnapshot(inTapir)) {
    result.snapshot = (await app.callDusk('snap', {}, snapAnswer, deadline)).snapshot
  }
  return result
}

/** tapir's `since`: entries strictly after that ISO-8601 time; an unparseable one keeps all. */
function entriesAfter(entries: unknown, since: string): unknown {
  const after = Date.parse(since)
  if (!Array.isArray(entries) || Number.isNaN(after)) return entries
  return entries.filter((entry: {time?: unknown}) => {
    const time = typeof entry.time === 'string' ? Date.parse(entry.time) : Number.NaN
    return Number.isNaN(time) || time > after
  })
}

function asText(value: unknown): string {
  if (typeof value === 'string') return value
  return value === undefined ? 'null' : JSON.stringify(value)
}
