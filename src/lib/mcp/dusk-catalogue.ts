import {ParamError} from '../errors.js'
import {verbNamed} from '../verbs/index.js'
import type {Param, Result, ToolShape, Verb} from '../verbs/types.js'
import {toolFor, type McpTool} from './schema.js'

/**
 * The catalogue of Dusk 0.0.1, tapir's predecessor: its 31 dusk_* tools, for agents configured
 * for the Dusk MCP server (`mcp:serve --catalogue=dusk`). Each tool is a tapir verb of the one
 * catalogue under 0.0.1's names, parameters and defaults, so a call runs the same code as the CLI
 * and the tapir_* tool; which extensions the app registers is the verb layer's business.
 * Loaded only by a server that serves it.
 */
export interface DuskTool extends ToolShape {
  tool: string
  /** The tapir verb that does the work. */
  verb: Verb
  /** Each dusk parameter's name on the verb, where it differs (`deviceScaleFactor` is `dpr`). */
  onVerb: Readonly<Record<string, string>>
  /** The verb result's keys under 0.0.1's names (`logs` are `entries`). */
  renamed: Readonly<Record<string, string>>
  /** Keys 0.0.1 echoes from the call's own arguments, kept where the verb's result lacks them. */
  echoed: readonly string[]
  /** The answer as 0.0.1 shapes it, where renaming top-level keys is not enough. */
  reshape?(answer: Record<string, unknown>): Record<string, unknown>
  /** The text of a tool whose 0.0.1 answer is not JSON (dusk_snap's YAML). */
  text?(result: Result): string
  /** Checks 0.0.1's own rules on the tool's arguments, before they become the verb's. */
  validate?(input: Record<string, unknown>): void
  /** A result that 0.0.1 answers as an error (dusk_wait_for's timeout): its message. */
  failure?(result: Result, input: Record<string, unknown>): string | undefined
}

/** A parameter of the dusk tool: one of the verb's (by the dusk name, or `from` another), with
 *  0.0.1's own type, required flag, default or choices where they differ. */
type ParamSpec = string | [name: string, changes: Partial<Param> & {from?: string}]

interface Definition {
  tool: string
  verb: string
  summary: string
  title?: string
  params?: readonly ParamSpec[]
  renamed?: Record<string, string>
  echoed?: readonly string[]
  reshape?: DuskTool['reshape']
  text?: DuskTool['text']
  validate?: DuskTool['validate']
  failure?: DuskTool['failure']
}

/** What a dusk tool's parameter keeps of the verb's: what the schema and the checks read. */
function duskParam(verb: Verb, spec: ParamSpec): {param: Param; from: string} {
  const [name, {from = name, ...changes}] = typeof spec === 'string' ? [spec, {}] : spec
  const source = verb.params.find((param) => param.name === from)
  if (!source) throw new Error(`${verb.name} has no parameter ${from}`)
  const {cliDefault: _cli, cliOnly: _only, local: _local, addition: _addition, mcpOnly: _mcp, missing: _missing, ...kept} = source
  const param: Param = {...kept, ...changes, name}
  // The app's own default is tapir's: where 0.0.1's differs, tapir sends 0.0.1's.
  if (changes.default !== undefined && changes.default !== source.default) delete param.defaultInApp
  return {param, from}
}

function dusk(definition: Definition): DuskTool {
  const verb = verbNamed(definition.verb)
  if (!verb) throw new Error(`no verb ${definition.verb}`)
  const built = (definition.params ?? []).map((spec) => duskParam(verb, spec))
  return {
    tool: definition.tool,
    title: definition.title ?? verb.title,
    summary: definition.summary,
    kind: verb.kind,
    params: built.map(({param}) => param),
    verb,
    onVerb: Object.fromEntries(built.filter(({param, from}) => param.name !== from).map(({param, from}) => [param.name, from])),
    renamed: definition.renamed ?? {},
    echoed: definition.echoed ?? [],
    ...(definition.reshape ? {reshape: definition.reshape} : {}),
    ...(definition.text ? {text: definition.text} : {}),
    ...(definition.validate ? {validate: definition.validate} : {}),
    ...(definition.failure ? {failure: definition.failure} : {}),
  }
}

const REQUIRED = {required: true} as const
const RESIZE_LASTS = 'Chrome dropped the override when this call returned; dusk_device_profile emulates a device whose window size stays.'
const NO_SNAPSHOT = ['includeSnapshot', {default: false}] as const satisfies ParamSpec
const GATES = ['checkStable', 'checkReceivesEvents'] as const

export const DUSK_TOOLS: readonly DuskTool[] = [
  dusk({
    tool: 'dusk_blur',
    verb: 'blur',
    summary: 'Take keyboard focus away from whichever widget holds it; hadFocus says whether any did.',
    params: [NO_SNAPSHOT],
  }),
  dusk({
    tool: 'dusk_clear',
    verb: 'clear',
    summary: 'Empty a text field by ref.',
    params: ['ref', NO_SNAPSHOT],
    echoed: ['ref'],
  }),
  dusk({tool: 'dusk_close_app', verb: 'close_app', summary: 'Ask the app to quit; later calls fail until it runs again.'}),
  dusk({
    tool: 'dusk_console',
    verb: 'console',
    summary: "Read the app's latest log entries, optionally from a minimum level up.",
    params: ['limit', 'minLevel'],
    renamed: {logs: 'entries'},
  }),
  dusk({
    tool: 'dusk_dblclick',
    verb: 'dblclick',
    summary: 'Click twice in quick succession on a widget by ref; the actionability checks run once, before the first click.',
    params: ['ref'],
    echoed: ['ref'],
  }),
  dusk({
    tool: 'dusk_device_profile',
    verb: 'device',
    summary: 'Make the web app in Chrome look like a named device (size, pixel ratio, touch, user agent); list names the presets.',
    params: [
      [
        'preset',
        {
          brief: 'The device to emulate.',
          options: ['iphone-x', 'iphone-13', 'iphone-15-pro', 'pixel-5', 'pixel-8', 'ipad-pro-12.9', 'desktop-1440', 'desktop-1920'],
        },
      ],
      'list',
      'reset',
    ],
  }),
  dusk({
    tool: 'dusk_dismiss_modals',
    verb: 'dismiss_modals',
    summary: 'Close every dialog, sheet and popup above the page; popped counts them.',
  }),
  dusk({
    tool: 'dusk_drag',
    verb: 'drag',
    summary: 'Drag from the widget at startRef and drop on the widget at endRef.',
    params: ['startRef', 'endRef'],
    echoed: ['startRef', 'endRef'],
  }),
  dusk({
    tool: 'dusk_evaluate',
    verb: 'evaluate',
    summary: 'Run one Dart expression inside the app and answer its value as text.',
    params: ['expression'],
  }),
  dusk({
    tool: 'dusk_exceptions',
    verb: 'exceptions',
    summary: 'Read the exceptions the app recorded lately, newest first.',
    params: ['limit'],
    renamed: {exceptions: 'entries'},
  }),
  dusk({
    tool: 'dusk_find',
    verb: 'find',
    summary: 'Look a widget up by text, substring, Semantics label or key; its qN ref is looked up again on every later action.',
    params: ['text', 'contains', 'semanticsLabel', 'key'],
  }),
  dusk({
    tool: 'dusk_focus',
    verb: 'focus',
    summary: 'Give keyboard focus to a widget by ref.',
    params: ['ref', NO_SNAPSHOT],
    echoed: ['ref'],
  }),
  dusk({tool: 'dusk_get_routes', verb: 'get_routes', summary: 'Say which route the app shows.'}),
  dusk({
    tool: 'dusk_hot_reload_and_snap',
    verb: 'hot_reload_and_snap',
    summary: 'Hot reload the app and answer with its snapshot, a screenshot and recent exceptions, or with the compile error.',
    params: ['screenshot'],
  }),
  dusk({
    tool: 'dusk_hover',
    verb: 'hover',
    summary: 'Rest a mouse pointer on a widget by ref (hover effects, tooltips).',
    params: ['ref'],
    echoed: ['ref'],
  }),
  dusk({
    tool: 'dusk_navigate',
    verb: 'navigate',
    summary: 'Go to a route path such as /settings; snap again afterwards, since old refs are gone.',
    params: ['route'],
    echoed: ['route'],
  }),
  dusk({
    tool: 'dusk_navigate_back',
    verb: 'navigate_back',
    summary: 'Go back one page, as the system Back button does; popped is false on the first page.',
  }),
  dusk({
    tool: 'dusk_observe',
    verb: 'observe',
    summary: 'List the widgets on screen an agent can act on, each with a qN ref, optionally only some roles.',
    params: ['intent', 'roles', 'limit', 'includeEnrichers'],
  }),
  dusk({
    tool: 'dusk_press_key',
    verb: 'press_key',
    summary: 'Press one key (Enter, Tab, Escape, an arrow, a letter), with control, shift, alt or meta held if asked.',
    params: ['key', ['modifiers', {options: ['control', 'shift', 'alt', 'meta']}]],
    echoed: ['key'],
  }),
  dusk({
    tool: 'dusk_resize_viewport',
    verb: 'resize',
    summary: "Set the size, pixel ratio, mobile and touch emulation of the web app's viewport in Chrome, or clear them with reset.",
    params: [
      ['width', {...REQUIRED, brief: 'CSS pixels.'}],
      ['height', {...REQUIRED, brief: 'CSS pixels.'}],
      ['deviceScaleFactor', {from: 'dpr'}],
      'mobile',
      'touch',
      'reset',
    ],
    // 0.0.1 names the pixel ratio deviceScaleFactor in its answer too, and knows no hold; what
    // Chrome does with the override once the call is over is worth a note.
    reshape({held: _held, ...answer}) {
      if (typeof answer.viewport !== 'object' || answer.viewport === null) return answer
      const {dpr, ...viewport} = answer.viewport as Record<string, unknown>
      return {...answer, viewport: {...viewport, deviceScaleFactor: dpr}, note: RESIZE_LASTS}
    },
    validate(input) {
      const scale = input.deviceScaleFactor
      if (typeof scale === 'number' && scale <= 0)
        throw new ParamError((name) => `${name('deviceScaleFactor')} must be above 0 (got ${scale}).`)
    },
  }),
  dusk({
    tool: 'dusk_right_click',
    verb: 'right_click',
    summary: 'Click a widget by ref with the secondary mouse button, e.g. for a context menu.',
    params: ['ref', NO_SNAPSHOT, ...GATES],
    echoed: ['ref'],
  }),
  dusk({
    tool: 'dusk_screenshot',
    verb: 'screenshot',
    summary: 'Capture the whole app as a PNG or JPEG image.',
    params: [
      ['format', {default: 'png'}],
      ['quality', {default: 80}],
    ],
    renamed: {base64: 'bytes'},
  }),
  dusk({
    tool: 'dusk_scroll',
    verb: 'scroll',
    summary: 'Scroll the list or page around a widget by ref, some pixels in one direction.',
    params: [['ref', REQUIRED], 'direction', 'pixels'],
    echoed: ['ref', 'direction', 'pixels'],
  }),
  dusk({
    tool: 'dusk_select_option',
    verb: 'select_option',
    summary: 'Open a dropdown by ref and pick the item with this label or value.',
    params: ['ref', 'value'],
    echoed: ['ref', 'value'],
  }),
  dusk({
    tool: 'dusk_set_checkbox',
    verb: 'set_checkbox',
    summary: 'Make a checkbox or switch by ref checked ("true") or not ("false"), touching it only when needed.',
    params: ['ref', 'value'],
    echoed: ['ref', 'value'],
  }),
  dusk({
    tool: 'dusk_snap',
    verb: 'snap',
    summary: 'Read the screen as a YAML tree with a [ref=eN] on every widget you can act on. Call it before acting.',
    params: ['depth'],
    text: (result) => String(result.snapshot ?? ''),
  }),
  dusk({
    tool: 'dusk_tap',
    verb: 'tap',
    summary: 'Tap a widget by ref, once it passes the actionability checks.',
    params: ['ref'],
    echoed: ['ref'],
  }),
  dusk({
    tool: 'dusk_triple_click',
    verb: 'triple_click',
    summary: 'Click a widget by ref three times in a row, e.g. to select a paragraph.',
    params: ['ref', NO_SNAPSHOT, ...GATES],
    echoed: ['ref'],
  }),
  dusk({
    tool: 'dusk_type',
    verb: 'type',
    summary: 'Put this text in a text field by ref, replacing what it held.',
    params: ['ref', 'text'],
    echoed: ['ref', 'text'],
  }),
  dusk({
    tool: 'dusk_wait_for',
    verb: 'wait',
    summary: 'Wait until a text shows, a text goes, or an expression holds; an error when time runs out.',
    params: ['text', 'textGone', 'expression', 'timeoutMs'],
    renamed: {elapsedMs: 'waitedMs'},
    validate(input) {
      const given = ['text', 'textGone', 'expression'].filter((name) => typeof input[name] === 'string' && input[name] !== '')
      if (given.length > 1) throw new ParamError((name) => `Pass only one of ${given.map(name).join(', ')}.`)
    },
    failure: (result, input) =>
      result.matched === false
        ? `Nothing matched within ${String(input.timeoutMs)} ms${typeof result.reason === 'string' ? ` (${result.reason})` : ''}.`
        : undefined,
  }),
  dusk({
    tool: 'dusk_wait_for_network_idle',
    verb: 'wait_for_network_idle',
    summary: 'Wait until the app has had no HTTP request in flight for idleMs; an error when time runs out.',
    params: ['timeoutMs', 'idleMs', 'pollIntervalMs'],
    failure: (result, input) => (result.matched === false ? `The network was not idle within ${String(input.timeoutMs)} ms.` : undefined),
  }),
]

const byTool = new Map(DUSK_TOOLS.map((tool) => [tool.tool, tool]))

export function duskTool(name: string): DuskTool | undefined {
  return byTool.get(name)
}

/** The MCP tools of the dusk catalogue, by name. */
export function listDuskTools(): McpTool[] {
  return DUSK_TOOLS.map((tool) => toolFor(tool)).sort((a, b) => a.name.localeCompare(b.name))
}
