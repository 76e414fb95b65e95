// The supervisor: a small detached process that runs `flutter run --machine` for `tapir start`
// and outlives the CLI. It keeps the daemon's stdin for requests (reload, restart, stop), writes
// the app's log beside the session and answers tapir over a socket only this user can reach.
//   node supervisor.js --socket <path> --log <file> -- <flutter> run --machine ...
// Nothing around it may end it while flutter runs: not a start that is interrupted, not a client
// that resets its connection or never reads, not a flutter that prints without pause. A stop
// request, a signal or flutter's exit ends it, and it then removes its socket folder.
import {spawn, type ChildProcessWithoutNullStreams} from 'node:child_process'
import {constants, openSync, writeSync} from 'node:fs'
import {createServer, type Socket} from 'node:net'
import {parseArgs} from 'node:util'
import {readBoundedLines} from '../bounded-lines.js'
import {isJsonObject} from '../shape.js'
import {parseDaemonLine, requestLine, type DaemonReply} from './daemon-lines.js'
import {removeSocketFolder} from './socket-folder.js'
import type {SupervisorEvent, SupervisorReply, SupervisorRequest} from './supervisor-protocol.js'
import {GO, MAX_REQUEST_BYTES, READY, STOP_STEP_MS} from './supervisor-protocol.js'

/** flutter's lines are cut beyond this; a daemon message is far smaller. */
const MAX_OUTPUT_LINE_BYTES = 1024 * 1024
/** A watcher that leaves this much unread is not reading: it is let go. */
const MAX_UNREAD_BYTES = 1024 * 1024
/** The progress lines kept for a watcher that connects later (every other event is kept). */
const KEPT_PROGRESS = 20
/** flutter's error lines kept for a watcher while the app boots: a failed build's compiler output. */
const KEPT_ERRORS = 40
/** The most of flutter's error lines kept for one reload's reply. */
const MAX_RELOAD_LINES = 200
/** What flutter's web runner prints when it recompiled but no browser is connected
 *  (resident_web_runner.dart kNoClientConnectedMessage); the reply then still says code 0. */
const NO_CLIENT = 'Recompile complete. No client connected.'

const {values, positionals} = parseArgs({options: {socket: {type: 'string'}, log: {type: 'string'}}, allowPositionals: true})
const socketPath = values.socket
const logFile = values.log
const [flutterBinary, ...flutterArgs] = positionals
if (!socketPath || !logFile || flutterBinary === undefined) {
  process.stderr.write('usage: supervisor.js --socket <path> --log <file> -- <flutter> run --machine ...\n')
  process.exit(64)
}
/** The flutter command given after `--`, and its arguments. */
const flutterCommand = {binary: flutterBinary, args: flutterArgs}

const logFd = openSync(logFile, constants.O_WRONLY | constants.O_APPEND | constants.O_CREAT | (constants.O_NOFOLLOW ?? 0), 0o600)
function log(line: string): void {
  try {
    writeSync(logFd, `${line}\n`)
  } catch {
    // a full disk loses log lines, not the app
  }
}

// Whatever else goes wrong is written down and outlived: ending here would orphan flutter.
process.on('uncaughtException', (error) => log(`tapir supervisor: ${error.message}`))
process.on('exit', () => removeSocketFolder(socketPath))

const events: SupervisorEvent[] = []
const watchers = new Set<Socket>()
const pending = new Map<number, (message: DaemonReply) => void>()
let flutter: ChildProcessWithoutNullStreams | undefined
let appId: string | undefined
let nextId = 1
/** What flutter printed while a reload or restart was under way, for its reply: flutter run
 *  --machine prints its errors (the compiler's among them) as plain stderr lines, not events. */
interface Window {
  errors: string[]
  noClient: boolean
  restarted: boolean
}
const windows = new Set<Window>()
/** When flutter last wrote to stderr: its two pipes keep no order between them, so a failure's
 *  lines may come in just after its reply. A failed reply waits for stderr to pause this long
 *  (at most STDERR_GRACE_MS in all) before it is answered. */
let lastStderrAt = 0
const STDERR_QUIET_MS = 50
const STDERR_GRACE_MS = 500
let exited = false
let stopping: Promise<SupervisorReply> | undefined

function emit(event: SupervisorEvent): void {
  events.push(event)
  const kept = event.event === 'progress' ? KEPT_PROGRESS : event.event === 'error' ? KEPT_ERRORS : undefined
  if (kept !== undefined && events.filter((seen) => seen.event === event.event).length > kept)
    events.splice(
      events.findIndex((seen) => seen.event === event.event),
      1,
    )
  for (const watcher of watchers) send(watcher, event)
}

function send(watcher: Socket, event: SupervisorEvent): void {
  if (!watcher.writable) return
  if (watcher.writableLength > MAX_UNREAD_BYTES) return void watcher.destroy()
  watcher.write(`${JSON.stringify(event)}\n`)
}

function startFlutter(): void {
  const child = spawn(flutterCommand.binary, flutterCommand.args, {stdio: ['pipe', 'pipe', 'pipe']})
  flutter = child
  child.on('error', (error) => {
    log(`tapir: could not run ${flutterCommand.binary}: ${error.message}`)
    finish(null, error.message)
  })
  child.stdin.on('error', () => {}) // flutter gone: its exit says so
  if (child.pid !== undefined) emit({event: 'flutter', pid: child.pid})
  child.on('exit', (code) => finish(code))
  readBoundedLines(child.stderr, MAX_OUTPUT_LINE_BYTES, ({text}) => {
    lastStderrAt = Date.now()
    log(text)
    if (!booted()) emit({event: 'error', line: text})
    for (const window of windows) if (window.errors.length < MAX_RELOAD_LINES) window.errors.push(text)
  })
  readBoundedLines(child.stdout, MAX_OUTPUT_LINE_BYTES, ({text}) => {
    const message = parseDaemonLine(text)
    if (!message) {
      if (text.trim() === NO_CLIENT) for (const window of windows) window.noClient = true
      return log(text)
    }
    if ('id' in message) return pending.get(message.id)?.(message)
    onEvent(message.event, message.params)
  })
}

function onEvent(name: string, params: Record<string, unknown>): void {
  const text = (key: string) => (typeof params[key] === 'string' ? (params[key] as string) : undefined)
  const [message, url, wsUri, error] = [text('message'), text('url'), text('wsUri'), text('error')]
  if (name === 'app.start') appId = text('appId')
  else if (name === 'app.progress' && message) {
    // A reload the web runner turned into a restart shows as the restart's progress.
    if (text('progressId') === 'hot.restart') for (const window of windows) window.restarted = true
    log(message)
    emit({event: 'progress', message})
  } else if (name === 'app.log' || name === 'daemon.logMessage') {
    const line = text('log') ?? message ?? ''
    log(line)
    // Older flutter sent errors as events; current flutter sends app.log only for a failed stop.
    if (params.error === true || params.level === 'error')
      for (const window of windows) if (window.errors.length < MAX_RELOAD_LINES) window.errors.push(line)
  } else if (name === 'app.webLaunchUrl' && url) emit({event: 'webLaunchUrl', url})
  else if (name === 'app.debugPort' && wsUri) emit({event: 'debugPort', wsUri})
  else if (name === 'app.started') emit({event: 'started'})
  else if (name === 'app.stop' && error) log(error)
}

/** Whether flutter has said both that the app started and where its VM Service is. */
function booted(): boolean {
  return events.some((seen) => seen.event === 'started') && events.some((seen) => seen.event === 'debugPort')
}

function request(method: string, params: Record<string, unknown>): Promise<DaemonReply> {
  const child = flutter
  if (!child || exited) return Promise.resolve({id: -1, error: 'flutter exited'})
  const id = nextId++
  return new Promise((resolve) => {
    pending.set(id, (reply) => {
      pending.delete(id)
      resolve(reply)
    })
    child.stdin.write(requestLine(id, method, params))
  })
}

async function restart(fullRestart: boolean): Promise<SupervisorReply> {
  if (!appId || exited || stopping) return {ok: false, message: 'The app is not running under flutter any more.'}
  const window: Window = {errors: [], noClient: false, restarted: false}
  windows.add(window)
  let reply: DaemonReply
  let result: {code?: unknown; message?: unknown} | undefined
  try {
    reply = await request('app.restart', {appId, fullRestart, pause: false, reason: 'manual', debounce: false})
    result = reply.result as typeof result
    if (reply.error !== undefined || result?.code !== 0) await stderrPause()
  } finally {
    windows.delete(window)
  }
  const message = typeof result?.message === 'string' ? result.message : reply.error === undefined ? '' : String(reply.error)
  if (reply.error === undefined && result?.code === 0)
    return {
      ok: true,
      message,
      ...(window.noClient ? {noClient: true} : {}),
      ...(!fullRestart && window.restarted ? {restarted: true} : {}),
    }
  const compileError = window.errors.join('\n').trim()
  return {ok: false, message, ...(compileError ? {compileError} : {})}
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

async function stderrPause(): Promise<void> {
  const until = Date.now() + STDERR_GRACE_MS
  await sleep(STDERR_QUIET_MS)
  while (Date.now() - lastStderrAt < STDERR_QUIET_MS && Date.now() < until) await sleep(STDERR_QUIET_MS)
}

/** Stops flutter (and so the app): app.stop, then SIGTERM, then SIGKILL, each after a grace. */
function stop(): Promise<SupervisorReply> {
  stopping ??= (async () => {
    if (flutter && !exited && appId) await Promise.race([request('app.stop', {appId}), sleep(STOP_STEP_MS)])
    if (flutter && !exited) flutter.kill('SIGTERM') // our own child, not yet reaped: the pid is certainly it
    const deadline = Date.now() + STOP_STEP_MS
    while (flutter && !exited && Date.now() < deadline) await sleep(50)
    if (flutter && !exited) flutter.kill('SIGKILL')
    return {ok: true, message: 'stopped'}
  })()
  return stopping
}

function parseRequest(line: string): SupervisorRequest | undefined {
  try {
    const value: unknown = JSON.parse(line)
    if (!isJsonObject(value)) return undefined
    if (value.op === 'watch' || value.op === 'stop') return {op: value.op}
    if (value.op === 'restart') return {op: 'restart', fullRestart: value.fullRestart === true}
  } catch {
    // not a request
  }
  return undefined
}

function answer(socket: Socket, reply: SupervisorReply, then?: () => void): void {
  if (socket.writable) socket.end(`${JSON.stringify(reply)}\n`, then)
  else then?.()
}

/** One client: its errors (a reset, a write to a client gone) end that client only. */
function serve(socket: Socket): void {
  socket.on('error', () => socket.destroy())
  socket.on('close', () => watchers.delete(socket))
  readBoundedLines(socket, MAX_REQUEST_BYTES, ({text, cut}) => {
    const asked = cut ? undefined : parseRequest(text)
    if (!asked) return void socket.destroy()
    if (asked.op === 'watch') {
      for (const event of events) send(socket, event)
      if (!socket.destroyed) watchers.add(socket)
    } else if (asked.op === 'restart') {
      void restart(asked.fullRestart).then((reply) => answer(socket, reply))
    } else {
      void stop().then((reply) => answer(socket, reply, shutDown))
    }
  })
}

const server = createServer(serve)
server.on('error', (error) => {
  log(`tapir: the supervisor cannot listen on ${socketPath}: ${error.message}`)
  process.exit(1)
})
server.listen(socketPath, () => {
  process.stdout.on('error', () => {}) // start went away: its stdin's end says so below
  process.stdout.write(`${READY}\n`)
  process.stdin.on('error', () => {})
  readBoundedLines(process.stdin, 16, ({text}) => {
    if (text === GO && !flutter) startFlutter()
  })
  // A start that ends before it recorded this supervisor leaves nobody who could stop flutter.
  process.stdin.on('end', () => {
    if (!flutter) shutDown()
  })
})

function finish(code: number | null, error?: string): void {
  if (exited) return
  exited = true
  for (const resolve of pending.values()) resolve({id: -1, error: 'flutter exited'})
  emit({event: 'exited', code, ...(error === undefined ? {} : {error})})
  // Watchers read the exit, then the supervisor has nothing left to hold.
  setTimeout(shutDown, 500)
}

function shutDown(): void {
  for (const watcher of watchers) watcher.destroy()
  server.close()
  process.exit(0)
}

for (const signal of ['SIGTERM', 'SIGINT', 'SIGHUP'] as const) process.on(signal, () => void stop().then(shutDown))
