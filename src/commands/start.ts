import {findChrome} from '../lib/cdp/chrome-binary.js'
import {launchChrome, type LaunchedChrome} from '../lib/cdp/launch.js'
import {MAX_ARG_CHARS, MAX_LIST_ITEMS, MAX_NAME_CHARS} from '../lib/commands/tool-bounds.js'
import {commandParams, defineCommand, toolArg, type CommandCallOf, type CommandInputOf} from '../lib/commands/types.js'
import {TapirError, UsageError, type Worded} from '../lib/errors.js'
import type {Outcome} from '../lib/output/outcome.js'
import {linesOutcome} from '../lib/output/outcome.js'
import {redactToken} from '../lib/output/redact-token.js'
import {SimStartStopped, startSimInBackground} from '../lib/runtime/background-sim.js'
import {ensureCdpPortFree} from '../lib/runtime/chrome-for-app.js'
import {startFlutterApp} from '../lib/runtime/flutter-app.js'
import type {SessionLocation} from '../lib/session/location.js'
import {recordOwnChild, terminateOwned} from '../lib/session/owned-process.js'
import {runningApp} from '../lib/session/session-processes.js'
import type {Session} from '../lib/session/session.js'
import {deleteSession, readOwnSession, writeSession} from '../lib/session/store.js'
import type {VerbContext} from '../lib/verbs/types.js'
import {toWebSocketUri} from '../lib/vm/uri.js'
import {FAULT_KNOBS, faultKnobUsage, FaultKnobError, faultSpecsFromEnv, parseFaultKnobs} from '../sim/fault-knobs.js'

/** Refuses to record another app over one tapir started and that provably still runs. A pid
 *  tapir cannot prove it started is not stopped by `tapir stop` either, so it is not in the way. */
export function refuseOverRunningApp(location: SessionLocation): void {
  const app = runningApp(readOwnSession(location))
  if (app)
    throw new TapirError(
      (words) =>
        `An app tapir started is still running for this project (pid ${app.pid}). ${words.only('Run `tapir stop` first.', 'Call tapir_stop first.')}`,
      'local',
    )
}

/** What interrupts a start in a terminal: Ctrl-C, a kill, the terminal closing. */
const INTERRUPTIONS = ['SIGINT', 'SIGTERM', 'SIGHUP'] as const

const DEFAULT_BOOT_TIMEOUT_S = 300
/** A year: far beyond any build, and still a bound. */
const MAX_BOOT_TIMEOUT_S = 365 * 24 * 3600

/** The flags of this start that bring the same app back (`tapir restart` runs start with them):
 *  every app option that differs from its default, the sim's fault knobs as they took effect,
 *  and flutter run's own arguments. */
function startArgsOf(flags: StartInput, faults: string[], extraArgs: string[]): string[] {
  const args = [`--device=${flags.device}`]
  if (flags.mode !== undefined) args.push(`--mode=${flags.mode}`)
  if (flags.port !== 0) args.push(`--port=${flags.port}`)
  if (flags['vm-service-port'] !== undefined) args.push(`--vm-service-port=${flags['vm-service-port']}`)
  if (flags.dds) args.push('--dds')
  if (flags['boot-timeout'] !== DEFAULT_BOOT_TIMEOUT_S) args.push(`--boot-timeout=${flags['boot-timeout']}`)
  for (const fault of faults) args.push(`--fault=${fault}`)
  if (flags['cdp-port'] !== undefined) args.push(`--cdp-port=${flags['cdp-port']}`)
  if (flags['web-port'] !== 0) args.push(`--web-port=${flags['web-port']}`)
  return extraArgs.length > 0 ? [...args, '--', ...extraArgs] : args
}

const START_PARAMS = commandParams(
  {
    name: 'device',
    type: 'string',
    required: true,
    description:
      'Where to run the app: a flutter device id (chrome, web-server, linux, macos, windows, an emulator or a device), or sim for the simulated app.',
  },
  {
    name: 'mode',
    type: 'string',
    options: ['vm', 'dds', 'dwds', 'dwds-direct', 'dwds-websocket'],
    description:
      "How the simulated VM Service is fronted: vm (direct; the default), dds (behind a Dart Development Service redirect; the default with --dds), dwds (a web app's debug service behind DDS, as flutter run -d chrome runs it; the default with --cdp-port), dwds-direct (the same with --no-dds) or dwds-websocket (DWDS in WebSocket mode, as flutter run -d web-server runs it: extension calls capped at 10 s, no evaluate).",
  },
  {
    name: 'port',
    type: 'integer',
    default: 0,
    minimum: 0,
    maximum: 65535,
    description: 'sim: the port of the VM Service (0 picks a free one). A web app: the port the page is served on.',
  },
  {
    name: 'vm-service-port',
    type: 'integer',
    minimum: 1,
    maximum: 65535,
    description: 'A real app: the port its VM Service listens on (flutter run --host-vmservice-port).',
  },
  {
    name: 'dds',
    type: 'boolean',
    default: false,
    description:
      "Keep the Dart Development Service (DDS) in front of the VM Service: its history of the app's streams is what console, exceptions and perf read on an app with no package. A real app: flutter run without --no-dds, which tapir passes otherwise. The sim: --mode=dds unless --mode says otherwise (with --cdp-port its default, dwds, is behind DDS already).",
  },
  {
    name: 'boot-timeout',
    type: 'integer',
    default: DEFAULT_BOOT_TIMEOUT_S,
    minimum: 1,
    description: 'A real app: seconds to wait for flutter to build and start it.',
  },
  {
    name: 'fault',
    type: 'string',
    multiple: true,
    description: 'A fault knob for the sim, as in latency=200 (see the list below); repeat for more. Also TAPIR_SIM_FAULTS.',
  },
  {
    name: 'cdp-port',
    type: 'integer',
    minimum: 1,
    maximum: 65535,
    description:
      "The Chrome DevTools port of a web app's browser: with --device=chrome flutter's own headless Chrome takes it (--web-browser-debug-port); with web-server or sim tapir shows the page in a headless Chromium on it.",
  },
  {
    name: 'web-port',
    type: 'integer',
    default: 0,
    minimum: 0,
    maximum: 65535,
    description: 'Port the web page is served on with --cdp-port (0 picks a free one).',
  },
  {
    name: 'package',
    type: 'string',
    options: ['tapir', 'dusk', 'none'],
    description:
      "The sim's in-app package: tapir (ext.tapir.*), its predecessor Dusk 0.0.1 (ext.dusk.* only), or none (a debug app with only Flutter's own extensions, driven zero-install). Only with --device=sim; the same as --fault=package=<name>.",
  },
)

/** What `start` runs on: its params' input. */
export type StartInput = CommandInputOf<typeof START_PARAMS, 'flutterArgs'>

export const START = defineCommand({
  id: 'start',
  summary: 'Start an app in the background and record it as the session of this project.',
  description:
    "A real app: --device=<id> (chrome, web-server, linux, macos, windows, an emulator or a device id) runs `flutter run --machine` in this project under a small supervisor that outlives this command. The session is recorded at once (booting: true), then with the VM Service address flutter announces; progress lines go to stderr until the app has started or --boot-timeout passes. The app's log is written beside the session (`tapir logs`). With --device=chrome --cdp-port=N flutter runs the app in its own headless Chrome with that browser's DevTools on N (`--web-browser-debug-port --web-run-headless`), so evaluate, CDP screenshots and resize all work; with --device=web-server --cdp-port=N tapir launches a headless Chromium with remote debugging on N and opens the page `flutter run -d web-server` serves there (no evaluate: DWDS runs in its WebSocket mode). Arguments after `--` go to flutter run. flutter is TAPIR_FLUTTER_BIN, else the first on PATH.\n\n" +
    'The simulated app: --device=sim, a Flutter app double that answers every ext.tapir.* verb, so tapir can be tried with no Flutter installed. With --cdp-port it is served as a web page, as `flutter run -d web-server` serves a Flutter web app, and shown in a headless Chromium with remote debugging on that port (found through TAPIR_CHROME_BIN, PATH or the usual install paths), so tapir:resize, tapir:device and CDP screenshots work.\n\n' +
    'Fault knobs rehearse failures: give each with --fault (repeatable) or list them in TAPIR_SIM_FAULTS, separated by commas. A <method> is the VM Service method as sent, e.g. ext.tapir.snap.\n' +
    FAULT_KNOBS.map((knob) => `  ${faultKnobUsage(knob).padEnd(21)} ${knob.summary}`).join('\n'),
  examples: [
    '<%= config.bin %> start --device=macos',
    '<%= config.bin %> start --device=chrome --cdp-port=9222',
    '<%= config.bin %> start --device=emulator-5554 -- --flavor=dev',
    '<%= config.bin %> start --device=sim',
    '<%= config.bin %> start --device=sim --mode=dds',
    '<%= config.bin %> start --device=sim --package=none --dds',
    '<%= config.bin %> start --device=sim --cdp-port=9222',
    '<%= config.bin %> start --device=sim --fault=latency=200 --fault=lifecycle=hidden',
    'TAPIR_SIM_FAULTS=hang=ext.tapir.snap <%= config.bin %> start --device=sim',
  ],
  params: START_PARAMS,
  rest: {name: 'flutterArgs', description: 'Arguments for flutter run.', afterDashes: true},
  globals: 'all',
  session: 'locks',
  mcp: {
    tool: 'tapir_start',
    title: 'Start the app',
    summary: 'Start the app as the session; answers once it does, with progress while flutter builds.',
    kind: 'action',
    waitsForApp: true,
    params: [
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
        brief: "Web: headless Chromium's DevTools port.",
        description: 'The CDP port.',
      },
      {
        name: 'dds',
        type: 'boolean',
        brief: 'Keep DDS (no-package console, perf).',
        description: 'Keep the Dart Development Service.',
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
    ],
    input: (args) => ({
      device: toolArg.string(args.device) ?? '',
      fault: toolArg.strings(args.faults),
      'cdp-port': toolArg.integer(args.cdpPort),
      dds: args.dds === true,
      'boot-timeout': toolArg.integer(args.bootTimeout) ?? DEFAULT_BOOT_TIMEOUT_S,
      flutterArgs: toolArg.strings(args.flutterArgs),
    }),
  },
  run: (flags, {location, verbs}) => startOutcome(flags, location, verbs),
})

/** start's own values as the one reader read them from words (a session's recorded start
 *  options), each narrowed to its param's type; the reader checked them against the params. */
export function startInputOf(values: Record<string, unknown>): Omit<CommandCallOf<typeof START_PARAMS>, 'timeout'> {
  const text = (value: unknown) => (typeof value === 'string' ? value : undefined)
  const mode = START_PARAMS[1].options.find((option) => option === values.mode)
  const pkg = START_PARAMS[9].options.find((option) => option === values.package)
  return {
    device: text(values.device) ?? '',
    ...(mode === undefined ? {} : {mode}),
    ...(pkg === undefined ? {} : {package: pkg}),
    port: toolArg.integer(values.port),
    'vm-service-port': toolArg.integer(values['vm-service-port']),
    dds: values.dds === true,
    'boot-timeout': toolArg.integer(values['boot-timeout']),
    fault: toolArg.strings(values.fault),
    'cdp-port': toolArg.integer(values['cdp-port']),
    'web-port': toolArg.integer(values['web-port']),
  }
}

async function startOutcome(flags: StartInput, location: SessionLocation, context: VerbContext): Promise<Outcome> {
  // A Node timer holds at most 2^31-1 ms, and fires at once beyond.
  if (flags['boot-timeout'] > MAX_BOOT_TIMEOUT_S)
    throw new UsageError(
      (words) =>
        `${words.only('--boot-timeout', 'bootTimeout')} must be at most ${MAX_BOOT_TIMEOUT_S} s, a year (got ${flags['boot-timeout']}).`,
    )
  if (flags.device !== 'sim' && flags.package !== undefined)
    throw new UsageError(
      (words) =>
        `${words.param('package')} chooses what the sim registers: it needs ${words.only('--device=sim', 'device "sim"')} (a real app runs the package it depends on).`,
    )
  if (flags.device !== 'sim') return startFlutter(flags, location, context)
  if (flags.flutterArgs.length > 0)
    throw new UsageError(
      (words) =>
        `${words.only('Arguments for flutter run (after --)', 'flutterArgs')} need a real device, not ${words.only('--device=sim', 'device "sim"')}.`,
    )
  const packageKnob = flags.package === undefined ? [] : [`package=${flags.package}`]
  // Each knob once: a restart gives the knobs of the first start as flags, beside the same variable.
  const faults = [
    ...new Set([
      ...validFaults(faultSpecsFromEnv(process.env.TAPIR_SIM_FAULTS), 'TAPIR_SIM_FAULTS'),
      ...validFaults(flags.fault ?? [], (words) => words.only('--fault', 'faults')),
      ...packageKnob,
    ]),
  ]
  const mode = simMode(flags)
  refuseOverRunningApp(location)
  const cdpPort = flags['cdp-port']
  const timeoutMs = Math.min(flags.timeout, 15_000)
  // Found and checked before anything starts, so a missing browser or a busy port leaves nothing behind.
  const chromeBinary = cdpPort === undefined ? undefined : findChrome(process.env)
  if (cdpPort !== undefined) await ensureCdpPortFree(cdpPort)
  const log = location.path.replace(/(\.json)?$/, '.sim.log')
  const startedAt = new Date().toISOString()
  const startArgs = startArgsOf(flags, faults, [])
  // As a flutter start does: the sim is recorded in the session the moment it runs (booting),
  // and an interruption (Ctrl-C, SIGTERM, SIGHUP) or a cancelled call ends what was started.
  const stop = new AbortController()
  const interrupt = (): void => stop.abort()
  for (const signal of INTERRUPTIONS) process.on(signal, interrupt)
  context.cancelled?.addEventListener('abort', interrupt)
  if (context.cancelled?.aborted) interrupt()
  let booting: Session | undefined
  let sim: Awaited<ReturnType<typeof startSimInBackground>> | undefined
  let chrome: LaunchedChrome | undefined
  let chromeProcess
  try {
    sim = await startSimInBackground({
      mode,
      port: flags.port,
      ...(cdpPort === undefined ? {} : {webPort: flags['web-port']}),
      faults,
      logFile: log,
      timeoutMs,
      stop: stop.signal,
      spawned: (app) => {
        booting = {
          vmServiceUri: null,
          booting: true,
          cdpPort: cdpPort ?? null,
          pid: app.pid,
          projectRoot: location.projectRoot,
          device: 'sim',
          startedAt,
          log,
          startArgs,
          processes: {app},
        }
        writeSession(location, booting)
      },
    })
    if (chromeBinary !== undefined && cdpPort !== undefined) {
      // A sim started with a web port always says where its page is.
      if (sim.webUri === undefined) throw new TapirError('The sim started without its web page; see its log.', 'local')
      if (stop.signal.aborted) throw new SimStartStopped()
      chrome = await launchChrome({
        binary: chromeBinary,
        cdpPort,
        url: sim.webUri,
        logFile: location.path.replace(/(\.json)?$/, '.chrome.log'),
        timeoutMs,
      })
      chromeProcess = recordOwnChild(chrome.pid)
      if (!chromeProcess)
        throw new TapirError(
          'Chromium started, but its command line and start time could not be read back, so tapir could not record it safely.',
          'local',
        )
    }
    if (stop.signal.aborted) throw new SimStartStopped()
  } catch (error) {
    chrome?.kill()
    if (sim) await terminateOwned(sim.process)
    if (booting) deleteSession(location, booting)
    if (!stop.signal.aborted && !(error instanceof SimStartStopped)) throw error
    throw new TapirError(
      `${context.cancelled?.aborted ? 'The start was cancelled' : 'Interrupted'} before the app started. Nothing was left running.`,
      'local',
    )
  } finally {
    for (const signal of INTERRUPTIONS) process.off(signal, interrupt)
    context.cancelled?.removeEventListener('abort', interrupt)
  }
  const vmServiceUri = toWebSocketUri(sim.httpUri)
  const pid = sim.process.pid
  const webPort = sim.webUri === undefined ? null : Number(new URL(sim.webUri).port)
  writeSession(location, {
    vmServiceUri,
    cdpPort: cdpPort ?? null,
    pid,
    projectRoot: location.projectRoot,
    device: 'sim',
    startedAt,
    log,
    webPort,
    chromePid: chrome?.pid ?? null,
    tmpProfileDir: chrome?.profileDir ?? null,
    startArgs,
    processes: {app: sim.process, ...(chromeProcess ? {chrome: chromeProcess} : {})},
  })
  const shown = redactToken(vmServiceUri)
  const lines = [
    ...(chrome ? [`✓ chrome pid=${chrome.pid} (cdpPort=${cdpPort})`] : []),
    `✓ sim pid=${pid}`,
    ...(sim.webUri ? [`✓ web=${sim.webUri}`] : []),
    `✓ vmServiceUri=${shown}`,
    `✓ state=${location.path}`,
    `✓ log=${log}`,
    ...(faults.length > 0 ? [`✓ faults=${faults.join(',')}`] : []),
  ]
  const result = {
    pid,
    vmServiceUri: shown,
    state: location.path,
    log,
    faults,
    ...(chrome ? {chromePid: chrome.pid, cdpPort, webUri: sim.webUri} : {}),
  }
  return linesOutcome(lines, result, flags.json === true)
}

async function startFlutter(flags: StartInput, location: SessionLocation, context: VerbContext): Promise<Outcome> {
  if (flags.mode !== undefined || (flags.fault ?? []).length > 0)
    throw new UsageError((words) =>
      words.only('--mode and --fault are for the simulated app (--device=sim).', 'faults are for the simulated app (device "sim").'),
    )
  refuseOverRunningApp(location)
  const extraArgs = flags.flutterArgs
  const started = await startFlutterApp({
    device: flags.device,
    cdpPort: flags['cdp-port'],
    webPort: flags.port === 0 ? undefined : flags.port,
    vmServicePort: flags['vm-service-port'],
    dds: flags.dds,
    timeoutMs: flags['boot-timeout'] * 1000,
    extraArgs,
    startArgs: startArgsOf(flags, [], extraArgs),
    location,
    env: process.env,
    progress: (line) => context.progress?.(line),
    ...(context.cancelled ? {cancelled: context.cancelled} : {}),
  })
  const shown = redactToken(started.session.vmServiceUri ?? 'no VM Service')
  const lines = [
    ...(started.chromePid !== undefined
      ? [`✓ chrome pid=${started.chromePid} (cdpPort=${flags['cdp-port']})`]
      : flags['cdp-port'] === undefined
        ? []
        : [`✓ chrome run by flutter (cdpPort=${flags['cdp-port']})`]),
    `✓ flutter run pid=${started.flutterPid} (supervisor pid=${started.supervisorPid})`,
    `✓ vmServiceUri=${shown}`,
    `✓ state=${location.path}`,
    `✓ log=${started.log}`,
  ]
  const result = {
    device: flags.device,
    pid: started.flutterPid,
    supervisorPid: started.supervisorPid,
    vmServiceUri: shown,
    state: location.path,
    log: started.log,
    ...(started.chromePid === undefined ? {} : {chromePid: started.chromePid}),
    ...(flags['cdp-port'] === undefined ? {} : {cdpPort: flags['cdp-port']}),
  }
  return linesOutcome(lines, result, flags.json === true)
}

/** How the sim's VM Service is fronted: --mode as given, else a web page's DWDS behind DDS, else
 *  the VM alone, or behind DDS with --dds. --dds with a mode that has no DDS contradicts it. */
function simMode(flags: StartInput): NonNullable<StartInput['mode']> {
  const mode = flags.mode ?? (flags['cdp-port'] !== undefined ? 'dwds' : flags.dds ? 'dds' : 'vm')
  if (flags.dds && (mode === 'vm' || mode === 'dwds-direct'))
    // Only the CLI has --mode: over MCP `dds` decides the mode alone.
    throw new UsageError(`--dds keeps DDS in front of the sim, which --mode=${mode} leaves out: give one of them.`)
  return mode
}

/** The knobs as given, once they are known to parse; a bad one is a usage error naming its source. */
function validFaults(specs: string[], source: string | Worded): string[] {
  try {
    parseFaultKnobs(specs)
  } catch (error) {
    const message = error instanceof Error ? error.message : ''
    if (error instanceof FaultKnobError)
      throw new UsageError((words) => `${typeof source === 'string' ? source : source(words)}: ${message}`)
    throw error
  }
  return specs
}
