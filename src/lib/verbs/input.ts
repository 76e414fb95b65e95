import {ParamError, UsageError, type Surface} from '../errors.js'
import {MAX_TIMEOUT_MS} from '../vm/deadline.js'
import type {Input, Param, ParamValue, ToolShape} from './types.js'

export type {Surface} from '../errors.js'

/** The default a front end fills in, or undefined when the app should decide. */
export function defaultFor(param: Param, surface: Surface): ParamValue | undefined {
  if (param.defaultInApp) return undefined
  return surface === 'cli' ? (param.cliDefault ?? param.default) : param.default
}

/** The spec's default of one of a verb's params, by a name its input type holds. */
export function defaultOf<N extends string>(params: readonly Param<N>[], name: NoInfer<N>): ParamValue | undefined {
  return params.find((param) => param.name === name)?.default
}

export function missingMessage(param: Param): string {
  return param.missing ?? `Missing --${param.name}=<${param.type === 'string' ? 'value' : param.type}>.`
}

/** Refuses a call that lacks a required value, with the CLI's wording. */
export function requireParams(params: readonly Param[], input: Input): void {
  for (const param of params) {
    if (param.required && (input[param.name] === undefined || (input[param.name] === '' && !param.allowEmpty))) {
      throw new UsageError(missingMessage(param))
    }
  }
}

/** Every value as the string the VM hands a Dart extension; an empty optional string is left
 *  out so the app sees "absent", and local params never leave the process. */
export function toExtensionParams(params: readonly Param[], input: Input): Record<string, string> {
  const sent: Record<string, string> = {}
  for (const param of params) {
    const value = input[param.name]
    if (value === undefined || param.local) continue
    const text = Array.isArray(value) ? value.join(',') : String(value)
    if (text === '' && !param.allowEmpty) continue
    sent[param.name] = text
  }
  return sent
}

function typeError(param: Param, value: unknown): string | undefined {
  switch (param.type) {
    case 'string':
      return typeof value === 'string' ? undefined : 'a string'
    case 'boolean':
      return typeof value === 'boolean' ? undefined : 'a boolean'
    case 'integer':
      return Number.isInteger(value) ? undefined : 'an integer'
    case 'number':
      return typeof value === 'number' && Number.isFinite(value) ? undefined : 'a number'
    case 'string[]':
      return Array.isArray(value) && value.every((item) => typeof item === 'string') ? undefined : 'an array of strings'
  }
}

/** Whether `value` has the type `param` declares, so it can stand in a verb's input. */
export function isValueOf(param: Param, value: unknown): value is ParamValue {
  return typeError(param, value) === undefined
}

/** Checks JSON arguments (from MCP) against the tool's params and fills in the spec defaults. */
export function inputFromArguments(tool: Pick<ToolShape, 'params'>, args: Record<string, unknown> | undefined): Input {
  const known = new Map(tool.params.filter((param) => !param.cliOnly).map((param) => [param.name, param]))
  const input: Input = {}
  for (const [name, value] of Object.entries(args ?? {})) {
    const param = known.get(name)
    if (!param) throw new UsageError(`Additional property "${name}" is not allowed`)
    if (value === undefined || value === null) continue
    if (!isValueOf(param, value)) throw new UsageError(`Parameter "${name}" must be ${typeError(param, value)}`)
    checkValue(param, value)
    input[name] = value
  }
  for (const param of tool.params) {
    if (input[param.name] !== undefined) continue
    if (param.required && !param.cliOnly) throw new UsageError(`Missing required parameter "${param.name}"`)
    // A CLI-only param is not in the schema, but its default still goes to the app.
    if (!param.local) input[param.name] = defaultFor(param, 'mcp')
  }
  for (const param of known.values()) {
    if (param.required && input[param.name] === '' && !param.allowEmpty) throw new UsageError(`Parameter "${param.name}" must not be empty`)
  }
  return input
}

/** Range and choice checks shared by every front end. */
export function checkValue(param: Param, value: ParamValue): void {
  const {options} = param
  if (options && typeof value === 'string' && !options.includes(value)) {
    throw new ParamError((name) => `${name(param.name)} must be one of ${options.join(', ')} (got "${value}").`)
  }
  const unknown = options && Array.isArray(value) ? value.find((item) => !options.includes(item)) : undefined
  if (options && unknown !== undefined) {
    throw new ParamError((name) => `Each of ${name(param.name)} must be one of ${options.join(', ')} (got "${unknown}").`)
  }
  if (param.minimum !== undefined && typeof value === 'number' && value < param.minimum) {
    throw new ParamError((name) => `${name(param.name)} must be at least ${param.minimum} (got ${value}).`)
  }
  if (param.maximum !== undefined && typeof value === 'number' && value > param.maximum) {
    throw new ParamError((name) => `${name(param.name)} must be at most ${param.maximum} (got ${value}).`)
  }
  if (param.maxItems !== undefined && Array.isArray(value) && value.length > param.maxItems) {
    throw new ParamError((name) => `${name(param.name)} takes at most ${param.maxItems} items (got ${value.length}).`)
  }
  const {maxLength} = param
  const long =
    maxLength === undefined
      ? undefined
      : (Array.isArray(value) ? value : [value]).find((item) => typeof item === 'string' && item.length > maxLength)
  if (long !== undefined) {
    throw new ParamError(
      (name) =>
        `${name(param.name)} takes at most ${maxLength} characters${Array.isArray(value) ? ' an item' : ''} (got ${String(long).length}).`,
    )
  }
}

/** A time limit tapir can keep: a Node timer holds at most 2^31-1 ms and fires at once beyond. */
export function checkTimeout(flag: string, ms: number): void {
  if (ms > MAX_TIMEOUT_MS) throw new UsageError(`${flag} must be at most ${MAX_TIMEOUT_MS} ms, about 24.8 days (got ${ms}).`)
}
