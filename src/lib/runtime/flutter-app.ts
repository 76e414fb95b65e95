import type {ChildProcessByStdio} from 'node:child_process'
import {closeSync, constants, openSync, readFileSync, unlinkSync} from 'node:fs'
import {createServer} from 'node:net'
import {dirname} from 'node:path'
import type {Readable, Writable} from 'node:stream'
import {fileURLToPath} from 'node:url'
import {BoundedLines} from '../bounded-lines.js'
import {findChrome} from '../cdp/chrome-binary.js'
import {launchChrome, type LaunchedChrome} from '../cdp/launch.js'
import {withPage} from '../cdp/page.js'
import {TapirError, UsageError, messageOf} from '../errors.js'
import {findFlutter} from '../flutter/flutter-binary.js'
import {makeSocketFolder, removeSocketFolder} from '../flutter/socket-folder.js'
import {askSupervisor, watchSupervisor} from '../flutter/supervisor-client.js'
import {GO, READY, SUPERVISOR_STOP_MS, type SupervisorEvent} from '../flutter/supervisor-protocol.js'
import {nearestName} from '../nearest-name.js'
import type {SessionLocation} from '../session/location.js'
import {
  checkOwned,
  recordChildProcess,
  recordExecingChild,
  recordOwnChild,
  recordProcess,
  terminateOwned,
  type OwnedProcess,
} from '../session/owned-process.js'
import type {Session} from '../session/session.js'
import {deleteSession, writeSession} from '../session/store.js'
import {timerUntil} from '../vm/deadline.js'
import {toWebSocketUri} from '../vm/uri.js'
import {ensureFolder, fileError} from '../write-atomic.js'
import {ensureCdpPortFree} from './chrome-for-app.js'

const FROM_SOURCES = import.meta.url.endsWith('.ts')
const SUPERVISOR_MAIN = fileURLToPath(new URL(FROM_SOURCES ? '../flutter/supervisor.ts' : '../flutter/supervisor.js', import.meta.url))
export const WEB_DEVICES = ['chrome', 'web-server']
const LOG_TAIL_LINES = 15
/** The most of flutter's boot-time error lines a failed start shows. */
const SHOWN_ERROR_LINES = 40

export interface FlutterStartOptions {
  device: string
  cdpPort?: number
  webPort?: number
  vmServicePort?: number
  dds: boolean
  timeoutMs: number
  extraArgs: string[]
  /** The start flags that bring this app back, recorded for `tapir restart`. */
  startArgs: string[]
  location: SessionLocation
  env: NodeJS.ProcessEnv
  progress(line: string): void
  /** The caller gave up (an MCP cancel): everything started is ended, as on a failure. */
  cancelled?: AbortSignal
}

export interface StartedFlutterApp {
  session: Session
  flutterPid: number
  supervisorPid: number
  chromePid?: number
  log: string
}

async function ensurePortFree(port: number, flag: string): Promise<void> {
  const server = createServer()
  const free = await new Promise<boolean>((resolve) => {
    server.once('error', () => resolve(false))
    server.listen(port, '127.0.0.1', () => resolve(true))
  })
  if (free) await new Promise((resolve) => server.close(resolve))
  else throw new TapirError(`Port ${port} is already in use on 127.0.0.1; pass ${flag}=<a free port>, or free it.`, 'local')
}

/** The devices with no flutter needed: a mistyped one is named rather than sent to flutter. */
const NO_FLUTTER_DEVICES = ['sim']

/** flutter, or why there is none, with the device meant when the one given is a typo of `sim`
 *  and the sim as the way to go on without Flutter. */
function flutterFor(device: string, env: NodeJS.ProcessEnv): string {
  const meant = nearestName(device, NO_FLUTTER_DEVICES)
  try {
    return findFlutter(env)
  } catch (error) {
    if (!(error instanceof TapirError) || env.TAPIR_FLUTTER_BIN) throw error
    throw new TapirError(
      (words) =>
        meant !== undefined
          ? `${words.only(`--device=${device}`, `device "${device}"`)} is not a device tapir knows, and there is no flutter to ask. Did you mean ${words.only('--device=sim', 'device "sim"')}?`
          : `${error.message} Or try tapir with no Flutter: ${words.only('tapir start --device=sim', 'tapir_start with device "sim"')} runs the simulated app.`,
      'local',
    )
  }
}

/** The last lines of the log, for a failure that happened inside flutter. */
export function logTail(path: string, lines = LOG_TAIL_LINES): string[] {
  try {
    return readFileSync(path, 'utf8').trimEnd().split('\n').slice(-lines)
  } catch {
    return []
  }
}

function freshLog(path: string): void {
  ensureFolder(dirname(path), 0o700)
  try {
    unlinkSync(path)
  } catch {
    // not there
  }
  try {
    closeSync(openSync(path, constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | (constants.O_NOFOLLOW ?? 0), 0o600))
  } catch (error) {
    throw fileError('create the log', path, error)
  }
}

/** Whether tapir launches the browser itself: only for `web-server` with a CDP port. On `chrome`
 *  flutter launches its own, with its DevTools on the CDP port (`--web-browser-debug-port`). */
export function tapirBringsChrome(options: Pick<FlutterStartOptions, 'device' | 'cdpPort'>): boolean {
  return options.cdpPort !== undefined && options.device === 'web-server'
}

/** `flutter run --machine` for this device, with the ports asked for. */
export function flutterRunArgv(
  flutter: string,
  options: Pick<FlutterStartOptions, 'device' | 'cdpPort' | 'webPort' | 'vmServicePort' | 'dds' | 'extraArgs'>,
): string[] {
  const web = WEB_DEVICES.includes(options.device)
  const flutterChrome = options.device === 'chrome' && options.cdpPort !== undefined
  return [
    flutter,
    'run',
    '--machine',
    '-d',
    options.device,
    // The port tapir drives the page through, on flutter's own Chrome; headless, as tapir's own
    // Chromium is, so a start with --cdp-port needs no display.
    ...(flutterChrome ? ['--web-browser-debug-port', String(options.cdpPort), '--web-run-headless'] : []),
    ...(web && options.webPort !== undefined ? ['--web-port', String(options.webPort)] : []),
    ...(options.vmServicePort === undefined ? [] : ['--host-vmservice-port', String(options.vmServicePort)]),
    ...(options.dds ? [] : ['--no-dds']),
    ...options.extraArgs,
  ]
}

const INTERRUPTIONS = ['SIGINT', 'SIGTERM', 'SIGHUP'] as const

class Interrupted extends Error {}

/** Runs the app with `flutter run --machine` under a detached supervisor, records the session
 *  at once (`booting: true`), then the VM Service URI, and waits for the app to start. Any
 *  failure stops what was started and removes the session. An interruption (Ctrl-C, SIGTERM,
 *  SIGHUP) once flutter runs leaves it to the supervisor, which the session names: `tapir stop`
 *  ends it, flutter and the app. */
export async function startFlutterApp(options: FlutterStartOptions): Promise<StartedFlutterApp> {
  const web = WEB_DEVICES.includes(options.device)
  if (options.cdpPort !== undefined && !web)
    throw new UsageError(
      (words) =>
        `${words.only('--cdp-port', 'cdpPort')} needs a web app: use ${words.only('--device=chrome', 'device "chrome"')} (or web-server) with it, not ${words.only('--device=', 'device ')}${options.device}.`,
    )
  const flutter = flutterFor(options.device, options.env)
  if (options.vmServicePort !== undefined) await ensurePortFree(options.vmServicePort, '--vm-service-port')
  if (web && options.webPort !== undefined) await ensurePortFree(options.webPort, '--port')
  const chromeBinary = tapirBringsChrome(options) ? findChrome(options.env) : undefined
  const flutterEnv = options.device === 'chrome' ? chromeForFlutter(options.env) : options.env
  if (options.cdpPort !== undefined) await ensureCdpPortFree(options.cdpPort)

  const base = options.location.path.replace(/(\.json)?$/, '')
  const log = `${base}.flutter.log`
  freshLog(log)
  const started = new Started(options, log, flutterEnv)
  const interruption = new AbortController()
  const interrupt = (): void => interruption.abort()
  for (const signal of INTERRUPTIONS) process.on(signal, interrupt)
  // A cancel leaves this process running, so it can end what it started itself.
  const cancel = (): void => interruption.abort()
  options.cancelled?.addEventListener('abort', cancel)
  if (options.cancelled?.aborted) cancel()
  const cancelled = (): boolean => options.cancelled?.aborted === true
  try {
    if (chromeBinary !== undefined && options.cdpPort !== undefined) {
      started.chrome = await launchChrome({
        binary: chromeBinary,
        cdpPort: options.cdpPort,
        url: 'about:blank',
        logFile: `${base}.chrome.log`,
        timeoutMs: Math.min(options.timeoutMs, 15_000),
      })
      started.chromeProcess = recordOwnChild(started.chrome.pid)
      if (!started.chromeProcess)
        throw new TapirError(
          'Chromium started, but its command line and start time could not be read back, so tapir could not record it safely.',
          'local',
        )
    }
    if (interruption.signal.aborted) throw new Interrupted()
    const running = await started.run(flutterRunArgv(flutter, options), interruption.signal)
    return {
      session: started.session(),
      flutterPid: running.flutter.pid,
      supervisorPid: running.supervisor.pid,
      ...(started.chrome ? {chromePid: started.chrome.pid} : {}),
      log,
    }
  } catch (error) {
    if (interruption.signal.aborted && started.handedOver && started.supervisor && !cancelled()) {
      throw new TapirError(
        `Interrupted while the app was starting. flutter run goes on under tapir's supervisor (pid ${started.supervisor.pid}), but this session will not learn its VM Service address: run \`tapir stop\` to end it, then \`tapir start\` again.`,
        'local',
      )
    }
    const failure = cancelled()
      ? new TapirError('The start was cancelled before the app started.', 'local')
      : interruption.signal.aborted || error instanceof Interrupted
        ? new TapirError('Interrupted before the app started.', 'local')
        : error instanceof TapirError
          ? error
          : new TapirError(messageOf(error), 'local')
    const left = await started.undo()
    const after =
      left.length > 0
        ? `tapir could not end ${left.join(', ')}; the session keeps them, so \`tapir stop\` can.`
        : 'Nothing was left running.'
    throw new TapirError(`${failure.message} ${after}`, failure.kind, failure.details)
  } finally {
    for (const signal of INTERRUPTIONS) process.off(signal, interrupt)
    options.cancelled?.removeEventListener('abort', cancel)
  }
}

type SupervisorChild = ChildProcessByStdio<Writable, Readable, null>

/** Waits for the supervisor's READY line, the sign that its socket accepts connections: a socket
 *  file can exist before it listens. Bounded by the boot deadline; its exit ends the wait. */
function supervisorReady(child: SupervisorChild, deadline: number, interrupted: AbortSignal, log: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const lines = new BoundedLines(64)
    const done = (error?: Error): void => {
      timer.clear()
      child.stdout.off('data', onData)
      child.stdout.off('end', onEnd)
      interrupted.removeEventListener('abort', onAbort)
      if (error) reject(error)
      else resolve()
    }
    const onData = (chunk: Buffer): void => {
      if (lines.push(chunk).some((line) => line.text === READY)) done()
    }
    const onEnd = (): void => done(new TapirError(`The supervisor for flutter run ended before it was ready; see ${log}.`, 'local'))
    const onAbort = (): void => done(new Interrupted())
    const timer = timerUntil(deadline, () =>
      done(new TapirError(`The supervisor for flutter run was not ready within the boot deadline; see ${log}.`, 'local')),
    )
    child.stdout.on('data', onData)
    child.stdout.on('end', onEnd)
    interrupted.addEventListener('abort', onAbort)
    if (interrupted.aborted) onAbort()
  })
}

/** One start in progress: what has been started so far, so a failure can undo exactly that. */
class Started {
  chrome: LaunchedChrome | undefined
  chromeProcess: OwnedProcess | undefined
  supervisor: OwnedProcess | undefined
  flutter: OwnedProcess | undefined
  socket: string | undefined
  vmServiceUri: string | null = null
  booting = true
  /** Whether the supervisor was told to start flutter: from then on it holds the app. */
  handedOver = false
  private written = false
  private readonly startedAt = new Date().toISOString()

  /** flutter's two words that the app runs, in either order: `app.started` (on the web, at once)
   *  and `app.debugPort` (on the web, once the page has connected to DWDS). */
  private appStarted = false
  /** What flutter printed on stderr while booting, the last lines: a failed build's errors. */
  private readonly errors: string[] = []

  constructor(
    private readonly options: FlutterStartOptions,
    private readonly log: string,
    private readonly env: NodeJS.ProcessEnv,
  ) {}

  session(): Session {
    const {options} = this
    // While it boots, flutter's launcher may still exec another program, so its record would not
    // match: only the supervisor is recorded then, and stopping it stops flutter (its own child).
    const app = this.booting ? undefined : this.flutter
    return {
      vmServiceUri: this.vmServiceUri,
      ...(this.booting ? {booting: true} : {}),
      cdpPort: options.cdpPort ?? null,
      pid: app?.pid ?? null,
      projectRoot: options.location.projectRoot,
      device: options.device,
      startedAt: this.startedAt,
      log: this.log,
      webPort: options.webPort ?? null,
      vmServicePort: options.vmServicePort ?? null,
      dds: options.dds,
      flutterArgs: options.extraArgs,
      startArgs: options.startArgs,
      chromePid: this.chrome?.pid ?? null,
      tmpProfileDir: this.chrome?.profileDir ?? null,
      supervisorSocket: this.socket ?? null,
      processes: {
        ...(app ? {app} : {}),
        ...(this.supervisor ? {supervisor: this.supervisor} : {}),
        ...(this.chromeProcess ? {chrome: this.chromeProcess} : {}),
      },
    }
  }

  private save(): void {
    writeSession(this.options.location, this.session())
    this.written = true
  }

  /** Starts the supervisor and records it before it may start flutter, so whatever happens to
   *  this process from then on, the session names what `tapir stop` must end. */
  async run(flutterArgv: string[], interrupted: AbortSignal): Promise<{flutter: OwnedProcess; supervisor: OwnedProcess}> {
    const deadline = Date.now() + this.options.timeoutMs
    const socket = makeSocketFolder()
    this.socket = socket
    const loader = FROM_SOURCES ? ['--import', import.meta.resolve('tsx')] : []
    const args = [...loader, SUPERVISOR_MAIN, '--socket', socket, '--log', this.log, '--', ...flutterArgv]
    const argv = [process.execPath, ...args]
    // Loaded where used: `tapir test` shares the quick bundle, whose start-up pays for each builtin at the top.
    const child = process.getBuiltinModule('node:child_process').spawn(process.execPath, args, {
      detached: true,
      stdio: ['pipe', 'pipe', 'ignore'],
      cwd: this.options.location.projectRoot,
      env: this.env,
    })
    child.on('error', () => {}) // a supervisor that cannot run never says READY
    child.stdin.on('error', () => {})
    child.unref()
    let supervisor: OwnedProcess | undefined
    try {
      if (child.pid === undefined) throw new TapirError('Could not start the supervisor for flutter run.', 'local')
      supervisor = recordProcess(child.pid, argv)
      this.supervisor = supervisor
      if (!supervisor) {
        child.kill('SIGKILL')
        throw new TapirError(
          'The supervisor started, but its command line and start time could not be read back, so tapir could not record it safely.',
          'local',
        )
      }
      this.save()
      await supervisorReady(child, deadline, interrupted, this.log)
      child.stdin.end(`${GO}\n`)
      this.handedOver = true
    } finally {
      child.stdout.destroy()
      // Without GO the supervisor then ends by itself, having started nothing.
      if (!this.handedOver) child.stdin.destroy()
    }
    await this.follow(socket, supervisor, deadline, interrupted)
    if (!this.flutter)
      throw new TapirError(`The app started, but flutter run's process was never named to tapir; see ${this.log}.`, 'local')
    return {flutter: this.flutter, supervisor}
  }

  private follow(socket: string, supervisor: OwnedProcess, deadline: number, interrupted: AbortSignal): Promise<void> {
    return new Promise((resolve, reject) => {
      let watch: {close(): void} | undefined
      let settled = false
      const settle = (error?: Error): void => {
        if (settled) return
        settled = true
        timer.clear()
        interrupted.removeEventListener('abort', onAbort)
        watch?.close()
        if (error) reject(error)
        else resolve()
      }
      const onAbort = (): void => settle(new Interrupted())
      interrupted.addEventListener('abort', onAbort)
      const seconds = Math.round(this.options.timeoutMs / 1000)
      const timer = timerUntil(deadline, () => settle(this.timedOut(seconds)))
      // One event at a time, in order: recording flutter may wait out an exec, and the events
      // after it rely on that record.
      let handled = Promise.resolve()
      const onEvent = (event: SupervisorEvent): void => {
        handled = handled
          .then(async () => {
            if (!settled && (await this.onEvent(event, supervisor))) settle()
          })
          .catch(settle)
      }
      watchSupervisor(socket, onEvent, () =>
        settle(new TapirError(`The supervisor for flutter run went away before the app started; see ${this.log}.`, 'local')),
      ).then(
        (handle) => (settled ? handle.close() : (watch = handle)),
        (error: Error) => settle(new TapirError(`Could not follow the supervisor: ${error.message}`, 'local')),
      )
      if (interrupted.aborted) onAbort()
    })
  }

  /** What one event of the supervisor means for this start; true once the app has started. */
  private async onEvent(event: SupervisorEvent, supervisor: OwnedProcess): Promise<boolean> {
    if (event.event === 'flutter') {
      this.flutter = await recordExecingChild(event.pid, supervisor)
      if (!this.flutter)
        throw new TapirError('flutter run started, but tapir could not read back its identity to record it safely.', 'local')
      this.save()
    } else if (event.event === 'progress') {
      this.options.progress(`… ${event.message}`)
    } else if (event.event === 'error') {
      this.errors.push(event.line)
      if (this.errors.length > SHOWN_ERROR_LINES) this.errors.shift()
    } else if (event.event === 'webLaunchUrl' && this.chrome !== undefined && this.options.cdpPort !== undefined) {
      this.options.progress(`… opening ${event.url} in Chrome (cdpPort=${this.options.cdpPort})`)
      await withPage({port: this.options.cdpPort}, (page) => page.send('Page.navigate', {url: event.url}))
    } else if (event.event === 'debugPort') {
      this.vmServiceUri = vmServiceUriFrom(event.wsUri, this.log)
      this.save()
      return this.ready(supervisor)
    } else if (event.event === 'started') {
      // Native runners announce the VM Service before they say started (run_hot.dart attach());
      // only the web runner says started first.
      if (!WEB_DEVICES.includes(this.options.device) && this.vmServiceUri === null)
        throw new TapirError(`flutter run reported the app started without a VM Service address; see ${this.log}.`, 'local')
      this.appStarted = true
      return this.ready(supervisor)
    } else if (event.event === 'exited') {
      const why = event.error ?? `flutter run exited with code ${event.code ?? 'null'}`
      if (this.errors.length > 0) {
        for (const line of this.errors) this.options.progress(`  ${line}`)
        throw new TapirError(`The app did not start: ${why}. flutter's errors are above; its whole log is ${this.log}.`, 'local')
      }
      const tail = logTail(this.log)
      for (const line of tail) this.options.progress(`  ${line}`)
      throw new TapirError(
        `The app did not start: ${why}. ${tail.length > 0 ? 'The end of its log is above; the' : 'The'} whole log is ${this.log}.`,
        'local',
      )
    }
    return false
  }

  /** Done once flutter has said both that the app started and where its VM Service is. */
  private ready(supervisor: OwnedProcess): boolean {
    if (!this.appStarted || this.vmServiceUri === null) return false
    this.booting = false
    // A launcher script may have exec'd flutter by now: record it as it runs.
    this.flutter = (this.flutter && recordChildProcess(this.flutter.pid, supervisor)) ?? this.flutter
    this.save()
    return true
  }

  private timedOut(seconds: number): TapirError {
    if (!this.appStarted || this.vmServiceUri !== null)
      return new TapirError(
        (words) => `The app did not start within ${seconds} s (${words.only('--boot-timeout', 'bootTimeout')}); see ${this.log}.`,
        'local',
      )
    const web = WEB_DEVICES.includes(this.options.device)
    return new TapirError(
      (words) =>
        `flutter run started the app but announced no VM Service address within ${seconds} s (${words.only('--boot-timeout', 'bootTimeout')})${web ? ': on the web it comes once the page has loaded in a browser and connected to the debug service' : ''}; see ${this.log}.`,
      'local',
    )
  }

  /** Stops what this start began: the app through flutter, then flutter, the supervisor, Chrome.
   *  Answers what could not be ended (then the session stays, so `tapir stop` can). */
  async undo(): Promise<string[]> {
    if (this.socket && this.supervisor) await askSupervisor(this.socket, {op: 'stop'}, SUPERVISOR_STOP_MS).catch(() => undefined)
    if (this.flutter) await terminateOwned(this.flutter)
    if (this.supervisor) await terminateOwned(this.supervisor, SUPERVISOR_STOP_MS)
    if (this.chromeProcess) await terminateOwned(this.chromeProcess)
    this.chrome?.kill()
    const left = (
      [
        ['flutter run', this.flutter],
        ['the supervisor', this.supervisor],
        ['Chromium', this.chromeProcess],
      ] as const
    ).flatMap(([role, record]) => (record && checkOwned(record).state === 'ours' ? [`${role} (pid ${record.pid})`] : []))
    if (left.length > 0) return left
    if (this.socket) removeSocketFolder(this.socket)
    if (this.written) deleteSession(this.options.location, this.session())
    return []
  }
}

/** The environment for `flutter run -d chrome`: flutter finds its browser through CHROME_EXECUTABLE
 *  (flutter_tools `chrome.dart`, kChromeEnvironment), so tapir hands it the one it would use, and
 *  a missing one fails here with tapir's error rather than later in flutter. A CHROME_EXECUTABLE
 *  of the user's own is kept unless TAPIR_CHROME_BIN or CHROME_PATH names another. */
function chromeForFlutter(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  if (env.CHROME_EXECUTABLE && !env.TAPIR_CHROME_BIN && !env.CHROME_PATH) return env
  return {...env, CHROME_EXECUTABLE: findChrome(env)}
}

/** The VM Service URI flutter announced, as tapir records it; one it cannot use is flutter's
 *  failure, named without echoing it (it may hold the token). */
function vmServiceUriFrom(announced: string, log: string): string {
  try {
    return toWebSocketUri(announced)
  } catch {
    throw new TapirError(
      `flutter run announced a VM Service address tapir cannot use (not an http:// or ws:// URI with a host); see ${log}.`,
      'local',
    )
  }
}
