import * as Flags from '@oclif/core/flags'
import {findChrome} from '../lib/cdp/chrome-binary.js'
import {launchChrome, type LaunchedChrome} from '../lib/cdp/launch.js'
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
import {SessionCommand} from '../oclif/session-command.js'
import type {FlagsOf} from '../oclif/tapir-command.js'
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
function startArgsOf(flags: FlagsOf<typeof Start>, faults: string[], extraArgs: string[]): string[] {
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

export default class Start extends SessionCommand<typeof Start> {
  static override summary = 'Start an app in the background and record it as the session of this project.'
  static override description =
    "A real app: --device=<id> (chrome, web-server, linux, macos, windows, an emulator or a device id) runs `flutter run --machine` in this project under a small supervisor that outlives this command. The session is recorded at once (booting: true), then with the VM Service address flutter announces; progress lines go to stderr until the app has started or --boot-timeout passes. The app's log is written beside the session (`tapir logs`). With --device=chrome --cdp-port=N flutter runs the app in its own headless Chrome with that browser's DevTools on N (`--web-browser-debug-port --web-run-headless`), so evaluate, CDP screenshots and resize all work; with --device=web-server --cdp-port=N tapir launches a headless Chromium with remote debugging on N and opens the page `flutter run -d web-server` serves there (no evaluate: DWDS runs in its WebSocket mode). Arguments after `--` go to flutter run. flutter is TAPIR_FLUTTER_BIN, else the first on PATH.\n\n" +
    'The simulated app: --device=sim, a Flutter app double that answers every ext.tapir.* verb, so tapir can be tried with no Flutter installed. With --cdp-port it is served as a web page, as `flutter run -d web-server` serves a Flutter web app, and shown in a headless Chromium with remote debugging on that port (found through TAPIR_CHROME_BIN, PATH or the usual install paths), so tapir:resize, tapir:device and CDP screenshots work.\n\n' +
    'Fault knobs rehearse failures: give each with --fault (repeatable) or list them in TAPIR_SIM_FAULTS, separated by commas. A <method> is the VM Service method as sent, e.g. ext.tapir.snap.\n' +
    FAULT_KNOBS.map((knob) => `  ${faultKnobUsage(knob).padEnd(21)} ${knob.summary}`).join('\n')
  static override examples = [
    '<%= config.bin %> start --device=macos',
    '<%= config.bin %> start --device=chrome --cdp-port=9222',
    '<%= config.bin %> start --device=emulator-5554 -- --flavor=dev',
    '<%= config.bin %> start --device=sim',
    '<%= config.bin %> start --device=sim --mode=dds',
    '<%= config.bin %> start --device=sim --cdp-port=9222',
    '<%= config.bin %> start --device=sim --fault=latency=200 --fault=lifecycle=hidden',
    'TAPIR_SIM_FAULTS=hang=ext.tapir.snap <%= config.bin %> start --device=sim',
  ]
  static override flags = {
    device: Flags.string({
      description:
        'Where to run the app: a flutter device id (chrome, web-server, linux, macos, windows, an emulator or a device), or sim for the simulated app.',
      required: true,
    }),
    mode: Flags.option({
      description:
        "How the simulated VM Service is fronted: vm (direct), dds (behind a Dart Development Service redirect), dwds (a web app's debug service behind DDS, as flutter run -d chrome runs it; the default with --cdp-port), dwds-direct (the same with --no-dds) or dwds-websocket (DWDS in WebSocket mode, as flutter run -d web-server runs it: extension calls capped at 10 s, no evaluate).",
      options: ['vm', 'dds', 'dwds', 'dwds-direct', 'dwds-websocket'] as const,
    })(),
    port: Flags.integer({
      description: 'sim: the port of the VM Service (0 picks a free one). A web app: the port the page is served on.',
      default: 0,
      min: 0,
      max: 65535,
    }),
    'vm-service-port': Flags.integer({
      description: 'A real app: the port its VM Service listens on (flutter run --host-vmservice-port).',
      min: 1,
      max: 65535,
    }),
    dds: Flags.boolean({
      description: 'A real app: keep the Dart Development Service in front of the VM Service (by default tapir passes --no-dds).',
      default: false,
    }),
    'boot-timeout': Flags.integer({
      description: 'A real app: seconds to wait for flutter to build and start it.',
      default: DEFAULT_BOOT_TIMEOUT_S,
      min: 1,
    }),
    fault: Flags.string({
      description: 'A fault knob for the sim, as in latency=200 (see the list below); repeat for more. Also TAPIR_SIM_FAULTS.',
      multiple: true,
    }),
    'cdp-port': Flags.integer({
      description:
        "The Chrome DevTools port of a web app's browser: with --device=chrome flutter's own headless Chrome takes it (--web-browser-debug-port); with web-server or sim tapir shows the page in a headless Chromium on it.",
      min: 1,
      max: 65535,
    }),
    'web-port': Flags.integer({
      description: 'Port the web page is served on with --cdp-port (0 picks a free one).',
      default: 0,
      min: 0,
      max: 65535,
    }),
    package: Flags.option({
      options: ['tapir', 'dusk', 'none'] as const,
      description:
        "The sim's in-app package: tapir (ext.tapir.*), its predecessor Dusk 0.0.1 (ext.dusk.* only), or none (a debug app with only Flutter's own extensions, driven zero-install). Only with --device=sim; the same as --fault=package=<name>.",
    })(),
  }

  static override strict = false

  protected override changesSession = true

  protected parseInput() {
    return this.parse(Start)
  }

  private startFlutter = startFlutter

  protected async sessionOutcome(flags: FlagsOf<typeof Start>, location: SessionLocation, context: VerbContext): Promise<Outcome> {
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
    if (flags.device !== 'sim') return this.startFlutter(flags, location, context)
    if (this.argv.includes('--'))
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
        mode: flags.mode ?? (cdpPort === undefined ? 'vm' : 'dwds'),
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
    return linesOutcome(lines, result, flags.json)
  }
}

export async function startFlutter(
  this: Start,
  flags: FlagsOf<typeof Start>,
  location: SessionLocation,
  context: VerbContext,
): Promise<Outcome> {
  if (flags.mode !== undefined || (flags.fault ?? []).length > 0)
    throw new UsageError((words) =>
      words.only('--mode and --fault are for the simulated app (--device=sim).', 'faults are for the simulated app (device "sim").'),
    )
  refuseOverRunningApp(location)
  const dashes = this.argv.indexOf('--')
  const extraArgs = dashes === -1 ? [] : this.argv.slice(dashes + 1)
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
  return linesOutcome(lines, result, flags.json)
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
