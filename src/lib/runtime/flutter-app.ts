import {spawn} from 'node:child_process'
import {closeSync, constants, existsSync, mkdtempSync, openSync, readFileSync, rmSync, unlinkSync} from 'node:fs'
import {createServer} from 'node:net'
import {tmpdir} from 'node:os'
import {dirname, join} from 'node:path'
import {fileURLToPath} from 'node:url'
import {findChrome} from '../cdp/chrome-binary.js'
import {launchChrome, type LaunchedChrome} from '../cdp/launch.js'
import {withPage} from '../cdp/page.js'
import {TapirError, UsageError} from '../errors.js'
import {findFlutter} from '../flutter/flutter-binary.js'
import {askSupervisor, watchSupervisor} from '../flutter/supervisor-client.js'
import type {SupervisorEvent} from '../flutter/supervisor-protocol.js'
import type {SessionLocation} from '../session/location.js'
import {recordChildProcess, recordOwnChild, recordProcess, terminateOwned, type OwnedProcess} from '../session/owned-process.js'
import {isAlive} from '../session/process.js'
import type {Session} from '../session/session.js'
import {deleteSession, writeSession} from '../session/store.js'
import {toWebSocketUri} from '../vm/uri.js'
import {ensureFolder, fileError} from '../write-atomic.js'
import {ensureCdpPortFree} from './chrome-for-app.js'

const FROM_SOURCES = import.meta.url.endsWith('.ts')
const SUPERVISOR_MAIN = fileURLToPath(new URL(FROM_SOURCES ? '../flutter/supervisor.ts' : '../flutter/supervisor.js', import.meta.url))
export const WEB_DEVICES = ['chrome', 'web-server']
const LOG_TAIL_LINES = 15

export interface FlutterStartOptions {
  device: string
  cdpPort?: number
  webPort?: number
  vmServicePort?: number
  dds: boolean
  timeoutMs: number
  extraArgs: string[]
  location: SessionLocation
  env: NodeJS.ProcessEnv
  progress(line: string): void
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

/** `flutter run --machine` for this device, with the ports asked for. */
export function flutterRunArgv(
  flutter: string,
  options: Pick<FlutterStartOptions, 'device' | 'cdpPort' | 'webPort' | 'vmServicePort' | 'dds' | 'extraArgs'>,
): string[] {
  const web = WEB_DEVICES.includes(options.device)
  // With --cdp-port tapir brings the browser: flutter only serves the page (web-server).
  const device = options.cdpPort === undefined ? options.device : 'web-server'
  return [
    flutter,
    'run',
    '--machine',
    '-d',
    device,
    ...(web && options.webPort !== undefined ? ['--web-port', String(options.webPort)] : []),
    ...(options.vmServicePort === undefined ? [] : ['--host-vmservice-port', String(options.vmServicePort)]),
    ...(options.dds ? [] : ['--no-dds']),
    ...options.extraArgs,
  ]
}

/** Runs the app with `flutter run --machine` under a detached supervisor, records the session
 *  at once (`booting: true`), then the VM Service URI, and waits for the app to start. Any
 *  failure stops what was started and removes the session. */
export async function startFlutterApp(options: FlutterStartOptions): Promise<StartedFlutterApp> {
  const web = WEB_DEVICES.includes(options.device)
  if (options.cdpPort !== undefined && !web)
    throw new UsageError(`--cdp-port needs a web app: use --device=chrome (or web-server) with it, not --device=${options.device}.`)
  const flutter = findFlutter(options.env)
  if (options.vmServicePort !== undefined) await ensurePortFree(options.vmServicePort, '--vm-service-port')
  if (web && options.webPort !== undefined) await ensurePortFree(options.webPort, '--port')
  const chromeBinary = options.cdpPort === undefined ? undefined : findChrome(options.env)
  if (options.cdpPort !== undefined) await ensureCdpPortFree(options.cdpPort)

  const base = options.location.path.replace(/(\.json)?$/, '')
  const log = `${base}.flutter.log`
  freshLog(log)
  const started = new Started(options, log)
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
    await started.run(flutterRunArgv(flutter, options))
    return {
      session: started.session(),
      flutterPid: started.flutter!.pid,
      supervisorPid: started.supervisor!.pid,
      ...(started.chrome ? {chromePid: started.chrome.pid} : {}),
      log,
    }
  } catch (error) {
    await started.undo()
    throw error
  }
}

/** One start in progress: what has been started so far, so a failure can undo exactly that. */
class Started {
  chrome: LaunchedChrome | undefined
  chromeProcess: OwnedProcess | undefined
  supervisor: OwnedProcess | undefined
  flutter: OwnedProcess | undefined
  socketDir: string | undefined
  socket: string | undefined
  vmServiceUri: string | null = null
  booting = true
  private written = false
  private readonly startedAt = new Date().toISOString()

  constructor(
    private readonly options: FlutterStartOptions,
    private readonly log: string,
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

  async run(flutterArgv: string[]): Promise<void> {
    this.socketDir = mkdtempSync(join(tmpdir(), 'tapir-run-'))
    this.socket = join(this.socketDir, 'supervisor.sock')
    const loader = FROM_SOURCES ? ['--import', import.meta.resolve('tsx')] : []
    const argv = [process.execPath, ...loader, SUPERVISOR_MAIN, '--socket', this.socket, '--log', this.log, '--', ...flutterArgv]
    const child = spawn(argv[0]!, argv.slice(1), {detached: true, stdio: 'ignore', cwd: this.options.location.projectRoot})
    child.unref()
    if (child.pid === undefined) throw new TapirError('Could not start the supervisor for flutter run.', 'local')
    this.supervisor = recordProcess(child.pid, argv)
    if (!this.supervisor) {
      child.kill('SIGKILL')
      throw new TapirError(
        'The supervisor started, but its command line and start time could not be read back, so tapir could not record it safely.',
        'local',
      )
    }
    const deadline = Date.now() + this.options.timeoutMs
    while (!existsSync(this.socket)) {
      if (!isAlive(child.pid) || Date.now() > deadline)
        throw new TapirError(`The supervisor for flutter run did not come up; see ${this.log}.`, 'local')
      await new Promise((resolve) => setTimeout(resolve, 25))
    }
    await this.follow(deadline)
  }

  private follow(deadline: number): Promise<void> {
    return new Promise((resolve, reject) => {
      let watch: {close(): void} | undefined
      let settled = false
      const settle = (error?: Error): void => {
        if (settled) return
        settled = true
        clearTimeout(timer)
        watch?.close()
        if (error) reject(error)
        else resolve()
      }
      const seconds = Math.round(this.options.timeoutMs / 1000)
      const timer = setTimeout(
        () =>
          settle(
            new TapirError(
              `The app did not start within ${seconds} s (--boot-timeout); see ${this.log}. Nothing was left running.`,
              'local',
            ),
          ),
        deadline - Date.now(),
      )
      const onEvent = async (event: SupervisorEvent): Promise<void> => {
        if (event.event === 'flutter') {
          this.flutter = recordChildProcess(event.pid, this.supervisor!)
          if (!this.flutter)
            return settle(new TapirError('flutter run started, but tapir could not read back its identity to record it safely.', 'local'))
          this.save()
        } else if (event.event === 'progress') {
          this.options.progress(`… ${event.message}`)
        } else if (event.event === 'webLaunchUrl' && this.options.cdpPort !== undefined) {
          this.options.progress(`… opening ${event.url} in Chrome (cdpPort=${this.options.cdpPort})`)
          await withPage({port: this.options.cdpPort}, (page) => page.send('Page.navigate', {url: event.url})).catch((error: Error) =>
            settle(error),
          )
        } else if (event.event === 'debugPort') {
          this.vmServiceUri = toWebSocketUri(event.wsUri)
          this.save()
        } else if (event.event === 'started') {
          if (!this.vmServiceUri)
            return settle(new TapirError(`flutter run reported the app started without a VM Service address; see ${this.log}.`, 'local'))
          this.booting = false
          // A launcher script may have exec'd flutter by now: record it as it runs.
          this.flutter = recordChildProcess(this.flutter!.pid, this.supervisor!) ?? this.flutter
          this.save()
          settle()
        } else if (event.event === 'exited') {
          const tail = logTail(this.log)
          for (const line of tail) this.options.progress(`  ${line}`)
          const why = event.error ?? `flutter run exited with code ${event.code ?? 'null'}`
          settle(
            new TapirError(
              `The app did not start: ${why}. ${tail.length > 0 ? 'The end of its log is above; the' : 'The'} whole log is ${this.log}.`,
              'local',
            ),
          )
        }
      }
      watchSupervisor(this.socket!, (event) => void onEvent(event)).then(
        (handle) => (settled ? handle.close() : (watch = handle)),
        (error: Error) => settle(new TapirError(`Could not follow the supervisor: ${error.message}`, 'local')),
      )
    })
  }

  /** Stops what this start began: the app through flutter, then flutter, the supervisor, Chrome. */
  async undo(): Promise<void> {
    if (this.socket && this.supervisor) await askSupervisor(this.socket, {op: 'stop'}, 8000).catch(() => undefined)
    if (this.flutter) await terminateOwned(this.flutter)
    if (this.supervisor) await terminateOwned(this.supervisor)
    if (this.chromeProcess) await terminateOwned(this.chromeProcess)
    this.chrome?.kill()
    if (this.socketDir) rmSync(this.socketDir, {recursive: true, force: true})
    if (this.written) deleteSession(this.options.location, this.session())
  }
}
