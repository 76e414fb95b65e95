import {UsageError} from '../../errors.js'
import {executeVerb} from '../execute-verb.js'
import {verbNamed} from '../index.js'
import type {Input, ParamValue, Result, Verb, VerbContext} from '../types.js'

/** Each `dusk_*` tool of Dusk 0.0.1's reference: the tapir verb that does its work, and the
 *  0.0.1 argument names that verb knows by another name. */
export const DUSK_TOOLS: Readonly<Record<string, {verb: string; renamed?: Readonly<Record<string, string>>}>> = {
  dusk_blur: {verb: 'blur'},
  dusk_clear: {verb: 'clear'},
  dusk_close_app: {verb: 'close_app'},
  dusk_console: {verb: 'console'},
  dusk_dblclick: {verb: 'dblclick'},
  dusk_device_profile: {verb: 'device'},
  dusk_dismiss_modals: {verb: 'dismiss_modals'},
  dusk_drag: {verb: 'drag'},
  dusk_evaluate: {verb: 'evaluate'},
  dusk_exceptions: {verb: 'exceptions'},
  dusk_find: {verb: 'find'},
  dusk_focus: {verb: 'focus'},
  dusk_get_routes: {verb: 'get_routes'},
  dusk_hot_reload_and_snap: {verb: 'hot_reload_and_snap'},
  dusk_hover: {verb: 'hover'},
  dusk_navigate: {verb: 'navigate'},
  dusk_navigate_back: {verb: 'navigate_back'},
  dusk_observe: {verb: 'observe'},
  dusk_press_key: {verb: 'press_key'},
  dusk_resize_viewport: {verb: 'resize', renamed: {deviceScaleFactor: 'dpr'}},
  dusk_right_click: {verb: 'right_click'},
  dusk_screenshot: {verb: 'screenshot'},
  dusk_scroll: {verb: 'scroll'},
  dusk_select_option: {verb: 'select_option'},
  dusk_set_checkbox: {verb: 'set_checkbox'},
  dusk_snap: {verb: 'snap'},
  dusk_tap: {verb: 'tap'},
  dusk_triple_click: {verb: 'triple_click'},
  dusk_type: {verb: 'type'},
  dusk_wait_for: {verb: 'wait'},
  dusk_wait_for_network_idle: {verb: 'wait_for_network_idle'},
}

/** One `dusk_*` call as the tapir verb that runs it. */
export interface DuskToolCall {
  verb: Verb
  input: Input
}

/**
 * The tapir verb and input for a `dusk_*` tool's arguments, already checked against 0.0.1's
 * schema. Only what the caller gave is passed on (tapir's own defaults are not filled in), except
 * that a snapshot is asked not to be attached, as 0.0.1's tools attach none unless told.
 */
export function duskToolCall(tool: string, args: Readonly<Record<string, ParamValue | undefined>>): DuskToolCall {
  const entry = DUSK_TOOLS[tool]
  const verb = entry === undefined ? undefined : verbNamed(entry.verb)
  if (entry === undefined || verb === undefined) throw new UsageError(`Unknown tool "${tool}": it is not one of Dusk 0.0.1's dusk_* tools.`)
  const input: Input = {}
  for (const [name, value] of Object.entries(args)) if (value !== undefined) input[entry.renamed?.[name] ?? name] = value
  if (input.includeSnapshot === undefined && verb.params.some((param) => param.name === 'includeSnapshot')) input.includeSnapshot = false
  verb.validate?.(input)
  return {verb, input}
}

/** What a `dusk_*` call came to: the verb's result, and whether it is a failure an MCP result marks
 *  as an error (a wait that timed out, as 0.0.1's tool answers it; a reload that did not compile). */
export interface DuskToolRun extends DuskToolCall {
  result: Result
  isError: boolean
}

/**
 * THE entry point of the `dusk_*` tools: runs one through the shared verb layer. Against an app
 * on Dusk 0.0.1 it drives `ext.dusk.<method>` with 0.0.1's params (every value a string); against
 * an app on tapir, the tapir verb; the three CLI-routed tools (resize, device, hot reload) run as
 * tapir's do. Throws the verb's TapirError (a refusal is a usage error, exit 1; the app's error,
 * a gate refusal included, is an app error, exit 3).
 */
export async function runDuskTool(
  tool: string,
  args: Readonly<Record<string, ParamValue | undefined>>,
  context: VerbContext,
): Promise<DuskToolRun> {
  const {verb, input} = duskToolCall(tool, args)
  const result = await executeVerb(verb, context, input)
  return {verb, input, result, isError: (verb.failed?.(result, input, true) ?? false) || (verb.mcpIsError?.(result) ?? false)}
}
