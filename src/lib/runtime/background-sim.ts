import {randomBytes} from 'node:crypto'
import {closeSync, readFileSync, unlinkSync} from 'node:fs'
import {createServer} from 'node:net'
import {dirname} from 'node:path'
import {fileURLToPath} from 'node:url'
import {TapirError} from '../errors.js'
import type {OwnedProcess} from '../session/owned-process.js'
import {recordProcess} from '../session/owned-process.js'
import {isAlive} from '../session/process.js'
import {object, optional, readAs, string, type Infer} from '../shape.js'
import {ensureFolder, openFreshLog} from '../write-atomic.js'

/** What the started sim writes to its ready file: where it serves. */
const readyShape = object({httpUri: string, webUri: optional(string)})

/** Run from the TypeScript sources (bin/dev.js): the sim then runs from them too, through tsx. */
const FROM_SOURCES = import.meta.url.endsWith('.ts')

/** The simulated app's entry. */
export const SIM_MAIN = fileURLToPath(new URL(FROM_SOURCES ? '../../sim/main.ts' : '../../sim/main.js', import.meta.url))
const SIM_HOST = '127.0.0.1'

function unlinkQuietly(path: string): void {
  try {
    unlinkSync(path)
  } catch {
    // not there
  }
}

function portInUse(port: number): TapirError {
  return new TapirError(`Port ${port} is already in use on ${SIM_HOST}; pass --port=<a free port>, or --port=0 to pick one.`, 'local')
}

/** Whether `port` can be listened on now (the sim then takes it); a free-port request always can. */
async function checkPortFree(port: number): Promise<void> {
  if (port === 0) return
  await new Promise<void>((resolve, reject) => {
    const server = createServer()
    server.once('error', (error: NodeJS.ErrnoException) => reject(error.code === 'EADDRINUSE' ? portInUse(port) : error))
    server.listen(port, SIM_HOST, () => server.close(() => resolve()))
  })
}

/** Starts the simulated app as a detached process, waits for the URI it announces and records
 *  the process (argv and start time) so `tapir stop` can prove it is still this one. */
export async function startSimInBackground(options: {
  mode: 'vm' | 'dds' | 'dwds' | 'dwds-direct' | 'dwds-websocket'
  port: number
  /** Serve the app as a web page on this port (0 picks one), as `flutter run -d web-server` does. */
  webPort?: number
  faults: readonly string[]
  logFile: string
  timeoutMs: number
  /** Told the sim's record as soon as it runs, before it is ready (the session is written then). */
  spawned?: (process: OwnedProcess) => void
  /** Aborts the start: the sim, not yet ready, is ended and the start fails with SimStartStopped. */
  stop?: AbortSignal
}): Promise<{process: OwnedProcess; httpUri: string; webUri?: string}> {
  ensureFolder(dirname(options.logFile), 0o700)
  await checkPortFree(options.port)
  const readyFile = `${options.logFile}.${randomBytes(8).toString('hex')}.ready`
  const log = openFreshLog(options.logFile)
  const faults = options.faults.flatMap((fault) => ['--fault', fault])
  const loader = FROM_SOURCES ? ['--import', import.meta.resolve('tsx')] : []
  const web = options.webPort === undefined ? [] : ['--web-port', String(options.webPort)]
  const args = [
    ...loader,
    SIM_MAIN,
    '--mode',
    options.mode,
    '--port',
    String(options.port),
    ...web,
    '--host',
    SIM_HOST,
    ...faults,
    '--ready-file',
    readyFile,
  ]
  const argv = [process.execPath, ...args]
  // Loaded where used: `tapir test` shares the quick bundle, whose start-up pays for each builtin at the top.
  const child = process.getBuiltinModule('node:child_process').spawn(process.execPath, args, {detached: true, stdio: ['ignore', log, log]})
  closeSync(log)
  child.unref()
  const pid = child.pid
  if (pid === undefined) throw new TapirError('Could not start the simulated app.', 'local')
  const deadline = Date.now() + options.timeoutMs
  let failure: string | Error = `The simulated app did not start within ${options.timeoutMs} ms; see ${options.logFile}.`
  // Recorded at once (node has exec'd it when spawn returns), so a start that is interrupted,
  // or a tapir that is killed, leaves a sim that `tapir stop` can prove is this one.
  const recorded = recordProcess(pid, argv)
  try {
    if (!recorded) throw new TapirError(UNRECORDED, 'local')
    options.spawned?.(recorded)
  } catch (error) {
    child.kill('SIGKILL')
    unlinkQuietly(readyFile)
    throw error
  }
  while (Date.now() < deadline) {
    if (options.stop?.aborted) {
      failure = new SimStartStopped()
      break
    }
    let ready: Infer<typeof readyShape> | undefined
    try {
      const read = readAs(readyShape, JSON.parse(readFileSync(readyFile, 'utf8')))
      if ('value' in read) ready = read.value
    } catch {
      // not written yet
    }
    if (ready) {
      unlinkQuietly(readyFile)
      return {process: recorded, httpUri: ready.httpUri, ...(ready.webUri === undefined ? {} : {webUri: ready.webUri})}
    }
    if (!isAlive(pid)) {
      failure = /EADDRINUSE/.test(readLog(options.logFile))
        ? portInUse(options.port).message
        : `The simulated app exited while starting; see ${options.logFile}.`
      break
    }
    await new Promise<void>((resolve) => {
      const wake = (): void => {
        clearTimeout(timer)
        resolve()
      }
      const timer = setTimeout(() => {
        options.stop?.removeEventListener('abort', wake)
        resolve()
      }, 50)
      options.stop?.addEventListener('abort', wake, {once: true})
    })
  }
  child.kill('SIGKILL') // still our unreaped child: its pid cannot have been reused
  unlinkQuietly(readyFile)
  throw typeof failure === 'string' ? new TapirError(failure, 'local') : failure
}

const UNRECORDED =
  'The simulated app started, but its command line and start time could not be read back, so tapir could not record it safely.'

/** A sim start stopped by its `stop` signal (Ctrl-C, SIGTERM, SIGHUP, a cancelled MCP call). */
export class SimStartStopped extends TapirError {
  constructor() {
    super('The sim start was stopped.', 'local')
  }
}

function readLog(path: string): string {
  try {
    return readFileSync(path, 'utf8')
  } catch {
    return ''
  }
}
