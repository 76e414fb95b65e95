import {ParamError, UsageError} from '../../errors.js'
import type {Input, Param, ParamValue, Verb, DuskFacts} from '../types.js'

/** What tapir sends an app on Dusk 0.0.1 for one verb call, and what it does itself around it. */
export interface DuskPlan {
  /** The `ext.dusk.<method>` to call. */
  method: string
  /** 0.0.1's params, each a string as the VM hands them to Dart. */
  params: Record<string, string>
  /** The values tapir acts on itself (a grep on the snapshot, a wait after a tap, ...). */
  inTapir: Input
}

const DUSK = 'the app runs Dusk 0.0.1'

/** A verb 0.0.1 lacks: exit 1, naming the verb. */
export function verbRefused(verb: string): UsageError {
  return new UsageError(
    (words) =>
      `${words.call(verb)} needs the tapir package, but ${DUSK}, which has no such call. Move the app to tapir (see tapir doctor).`,
  )
}

/** A parameter 0.0.1 lacks and tapir cannot do for it: exit 1, naming the parameter. */
export function paramRefused(verb: string, param: string, value?: string, why = `whose ${verb} has no such parameter`): UsageError {
  return new UsageError(
    (words) =>
      `${value === undefined ? words.param(param) : words.arg(param, value)} is not available: ${DUSK}, ${why}. Leave it out, or move the app to tapir (see tapir doctor).`,
  )
}

/** The verb's Dusk facts, or undefined for a verb that never calls the app's package. */
export function duskWireOf(verb: Pick<Verb, 'dusk'>): Exclude<DuskFacts, {on: 'unchanged'}> | undefined {
  return verb.dusk.on === 'unchanged' ? undefined : verb.dusk
}

/** Left at its default, a value 0.0.1 lacks asks for nothing it does not do: it is not sent. */
function atDefault(param: Param, value: ParamValue): boolean {
  return value === param.default || value === param.cliDefault
}

/** 0.0.1 reads its modifiers as comma-separated names: control, shift, alt, meta. */
const DUSK_MODIFIER: Readonly<Record<string, string>> = {ctrl: 'control'}

function encode(param: Param, value: ParamValue): string | undefined {
  const text = Array.isArray(value) ? value.map((item) => DUSK_MODIFIER[item.toLowerCase()] ?? item.toLowerCase()).join(',') : String(value)
  return text === '' && !param.allowEmpty ? undefined : text
}

/** Translates one call of a tapir verb for an app on Dusk 0.0.1, or refuses it (UsageError, exit 1). */
export function planDuskCall(verb: Pick<Verb, 'name' | 'params' | 'dusk'>, input: Input): DuskPlan {
  const wire = duskWireOf(verb)
  if (wire === undefined) throw new Error(`${verb.name} does not call the app's package`)
  if (wire.on === 'refused') throw verbRefused(verb.name)
  const plan: DuskPlan = {method: wire.method, params: {}, inTapir: {}}
  for (const param of verb.params) {
    const value = input[param.name]
    if (value === undefined || param.local) {
      if (value !== undefined) plan.inTapir[param.name] = value
      continue
    }
    const rule = wire.params[param.name] ?? {rule: 'refused'}
    if (rule.rule === 'refused') {
      if (!atDefault(param, value)) throw paramRefused(wire.method, param.name)
      continue
    }
    if (rule.rule === 'tapir') {
      plan.inTapir[param.name] = value
      continue
    }
    const text = encode(param, value)
    if (text !== undefined) plan.params[rule.as ?? param.name] = text
  }
  return adjust(wire, plan, input)
}

/** The parts of a translation that concern more than one parameter, by 0.0.1's method. */
function adjust(wire: Extract<DuskFacts, {on: 'driven'}>, plan: DuskPlan, input: Input): DuskPlan {
  const {inTapir, params} = plan
  if (inTapir.snapshot === 'diff') throw paramRefused(wire.method, 'snapshot', 'diff', 'which keeps no snapshot to diff against')
  // A call 0.0.1 takes includeSnapshot on: the snapshot mode says it.
  if (wire.params.includeSnapshot?.rule === 'sent' && typeof inTapir.snapshot === 'string')
    params.includeSnapshot = String(inTapir.snapshot === 'full')
  // Below a within node, the depth counts from that node: tapir cuts it there.
  if (wire.method === 'snap' && inTapir.within !== undefined && params.depth !== undefined) {
    inTapir.depth = Number(params.depth)
    delete params.depth
  }
  if (wire.method === 'scroll' && params.dy === undefined && params.dx === undefined && params.intoView !== 'true') {
    const delta = scrollDelta(inTapir.direction, inTapir.pixels)
    if (delta !== undefined) params[delta.axis] = String(delta.pixels)
  }
  if (wire.method === 'wait_for') {
    const given = ['text', 'textGone', 'expression'].filter((name) => typeof input[name] === 'string' && input[name] !== '')
    if (given.length > 1)
      throw new ParamError(
        (name) =>
          `${DUSK}, whose wait_for takes exactly one condition: pass only one of ${name('text')}, ${name('textGone')}, ${name('expression')}.`,
      )
  }
  return plan
}

/** Dusk's CLI (`dusk_scroll_command.dart`): down and up are a signed dy, right and left a signed dx. */
function scrollDelta(direction: ParamValue | undefined, pixels: ParamValue | undefined): {axis: 'dx' | 'dy'; pixels: number} | undefined {
  if (typeof direction !== 'string' || typeof pixels !== 'number') return undefined
  const sign = direction === 'up' || direction === 'left' ? -1 : 1
  return {axis: direction === 'left' || direction === 'right' ? 'dx' : 'dy', pixels: sign * pixels}
}
