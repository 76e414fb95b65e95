import {params} from '../verbs/define.js'
import type {Input, ToolShape} from '../verbs/types.js'

/** A tool about the session itself, served by the CLI command of the same name: the tool's
 *  arguments become that command's flags, so both run the same code. tapir's addition to the
 *  reference, so an agent with only MCP can start, check and stop the app. */
export interface SessionTool extends ToolShape {
  tool: string
  /** The CLI command that does the work (`start`, `stop`, ...). */
  command: string
  /** The command's arguments for a call's checked input. */
  argv(input: Input): string[]
  /** Whether the call waits until the app answers once the command is done (start). */
  waitsForApp?: boolean
}

const flag = (name: string, value: unknown) => (value === undefined ? [] : [`--${name}=${String(value)}`])
const strings = (value: unknown): string[] => (Array.isArray(value) ? value.filter((item) => typeof item === 'string') : [])

export const DEFAULT_BOOT_TIMEOUT_S = 300
/** Bounds on what an agent may hand a session command: a device id or a fault knob, a URI or
 *  one argument for flutter run, and how many of them. */
const MAX_NAME_CHARS = 256
const MAX_ARG_CHARS = 4096
const MAX_LIST_ITEMS = 100
/** `tapir start`'s own bound, a year: past 2^31-1 ms its timer is re-armed in steps. */
const MAX_BOOT_TIMEOUT_S = 365 * 24 * 3600

export const SESSION_TOOLS: readonly SessionTool[] = [
  {
    tool: 'tapir_devices',
    command: 'devices',
    title: 'List devices',
    summary: "List the device ids tapir_start takes: sim and flutter's devices.",
    kind: 'read',
    params: [],
    argv: () => [],
  },
  {
    tool: 'tapir_start',
    command: 'start',
    title: 'Start the app',
    summary: 'Start the app as the session; answers once the app does, with progress while flutter builds.',
    kind: 'action',
    waitsForApp: true,
    params: params(
      {
        name: 'device',
        type: 'string',
        required: true,
        maxLength: MAX_NAME_CHARS,
        brief: 'sim, or an id from tapir_devices.',
        description: 'Where to run the app.',
      },
      {
        name: 'faults',
        type: 'string[]',
        maxItems: MAX_LIST_ITEMS,
        maxLength: MAX_NAME_CHARS,
        brief: 'sim: fault knobs, e.g. "latency=200".',
        description: 'The sim fault knobs.',
      },
      {
        name: 'cdpPort',
        type: 'integer',
        minimum: 1,
        maximum: 65535,
        brief: 'A web app in a headless Chromium debugged on this port.',
        description: 'The CDP port.',
      },
      {
        name: 'flutterArgs',
        type: 'string[]',
        maxItems: MAX_LIST_ITEMS,
        maxLength: MAX_ARG_CHARS,
        brief: 'Arguments for flutter run.',
        description: 'flutter run arguments.',
      },
      {
        name: 'bootTimeout',
        type: 'integer',
        default: DEFAULT_BOOT_TIMEOUT_S,
        minimum: 1,
        maximum: MAX_BOOT_TIMEOUT_S,
        brief: 'Seconds to build and start.',
        description: 'The boot timeout.',
      },
    ),
    argv: (input) => {
      const extra = strings(input.flutterArgs)
      return [
        `--device=${String(input.device)}`,
        ...strings(input.faults).map((fault) => `--fault=${fault}`),
        ...flag('cdp-port', input.cdpPort),
        ...flag('boot-timeout', input.bootTimeout),
        ...(extra.length > 0 ? ['--', ...extra] : []),
      ]
    },
  },
  {
    tool: 'tapir_attach',
    command: 'attach',
    title: 'Attach a running app',
    summary: 'Record a running app (the VM Service URI flutter run printed) as the session.',
    kind: 'set',
    params: params(
      {name: 'uri', type: 'string', required: true, maxLength: MAX_ARG_CHARS, description: 'The VM Service URI.'},
      {
        name: 'cdpPort',
        type: 'integer',
        minimum: 1,
        maximum: 65535,
        brief: "Its Chrome's DevTools port.",
        description: 'The CDP port.',
      },
    ),
    argv: (input) => [`--uri=${String(input.uri)}`, ...flag('cdp-port', input.cdpPort)],
  },
  {
    tool: 'tapir_status',
    command: 'status',
    title: 'Session status',
    summary: 'Say what the session records and whether the app answers.',
    kind: 'read',
    params: [],
    argv: () => [],
  },
  {
    tool: 'tapir_stop',
    command: 'stop',
    title: 'Stop the app',
    summary: 'End what tapir started (the app, its browser) and remove the session.',
    kind: 'destructive',
    params: [],
    argv: () => [],
  },
  {
    tool: 'tapir_doctor',
    command: 'doctor',
    title: 'Check the set-up',
    summary: 'Check the project set-up, session, VM Service, tapir in the app, frames and Chrome.',
    kind: 'read',
    params: [],
    argv: () => [],
  },
]

export function sessionTool(name: string): SessionTool | undefined {
  return SESSION_TOOLS.find((tool) => tool.tool === name)
}
