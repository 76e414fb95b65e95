// The supervisor: a small detached process that runs `flutter run --machine` for `tapir start`
// and outlives the CLI. It keeps the daemon's stdin for requests (reload, restart, stop), writes
// the app's log beside the session and answers tapir over a socket only this user can reach.
//   node supervisor.js --socket <path> --log <file> -- <flutter> run --machine ...
import {spawn} from 'node:child_process'
import {appendFileSync, rmSync} from 'node:fs'
import {createServer, type Socket} from 'node:net'
import {dirname} from 'node:path'
import {createInterface} from 'node:readline'
import {parseArgs} from 'node:util'
import {parseDaemonLine, requestLine, type DaemonReply} from './daemon-lines.js'
import type {SupervisorEvent, SupervisorReply, SupervisorRequest} from './supervisor-protocol.js'

const STOP_GRACE_MS = 5000

const {values, positionals} = parseArgs({options: {socket: {type: 'string'}, log: {type: 'string'}}, allowPositionals: true})
const socketPath = values.socket
const logFile = values.log
if (!socketPath || !logFile || positionals.length === 0) {
  process.stderr.write('usage: supervisor.js --socket <path> --log <file> -- <flutter> run --machine ...\n')
  process.exit(64)
}

const log = (line: string): void => appendFileSync(logFile, `${line}\n`, {mode: 0o600})
const events: SupervisorEvent[] = []
const watchers = new Set<Socket>()
const pending = new Map<number, (message: DaemonReply) => void>()
let appId: string | undefined
let nextId = 1
let errorLines: string[] = []
let exited = false

function emit(event: SupervisorEvent): void {
  events.push(event)
  for (const watcher of watchers) watcher.write(`${JSON.stringify(event)}\n`)
}

const flutter = spawn(positionals[0]!, positionals.slice(1), {stdio: ['pipe', 'pipe', 'pipe']})
flutter.on('error', (error) => {
  log(`tapir: could not run ${positionals[0]}: ${error.message}`)
  finish(null, error.message)
})
if (flutter.pid !== undefined) emit({event: 'flutter', pid: flutter.pid})
flutter.on('exit', (code) => finish(code))
createInterface({input: flutter.stderr}).on('line', (line) => log(line))
createInterface({input: flutter.stdout}).on('line', (line) => {
  const message = parseDaemonLine(line)
  if (!message) return log(line)
  if ('id' in message) return pending.get(message.id)?.(message)
  onEvent(message.event, message.params)
})

function onEvent(name: string, params: Record<string, unknown>): void {
  const text = (key: string) => (typeof params[key] === 'string' ? (params[key] as string) : undefined)
  if (name === 'app.start') appId = text('appId')
  else if (name === 'app.progress' && text('message')) {
    log(text('message')!)
    emit({event: 'progress', message: text('message')!})
  } else if (name === 'app.log' || name === 'daemon.logMessage') {
    const line = text('log') ?? text('message') ?? ''
    log(line)
    if (params.error === true || params.level === 'error') errorLines.push(line)
  } else if (name === 'app.webLaunchUrl' && text('url')) emit({event: 'webLaunchUrl', url: text('url')!})
  else if (name === 'app.debugPort' && text('wsUri')) emit({event: 'debugPort', wsUri: text('wsUri')!})
  else if (name === 'app.started') emit({event: 'started'})
  else if (name === 'app.stop' && text('error')) log(text('error')!)
}

function request(method: string, params: Record<string, unknown>): Promise<DaemonReply> {
  const id = nextId++
  return new Promise((resolve) => {
    pending.set(id, (reply) => {
      pending.delete(id)
      resolve(reply)
    })
    flutter.stdin.write(requestLine(id, method, params))
  })
}

async function restart(fullRestart: boolean): Promise<SupervisorReply> {
  if (!appId || exited) return {ok: false, message: 'The app is not running under flutter any more.'}
  errorLines = []
  const reply = await request('app.restart', {appId, fullRestart, pause: false, reason: 'manual', debounce: false})
  const result = reply.result as {code?: unknown; message?: unknown} | undefined
  const message = typeof result?.message === 'string' ? result.message : reply.error === undefined ? '' : String(reply.error)
  if (reply.error === undefined && result?.code === 0) return {ok: true, message}
  const compileError = errorLines.join('\n').trim()
  return {ok: false, message, ...(compileError ? {compileError} : {})}
}

async function stop(): Promise<SupervisorReply> {
  if (!exited && appId) {
    await Promise.race([request('app.stop', {appId}), new Promise((resolve) => setTimeout(resolve, STOP_GRACE_MS))])
  }
  if (!exited) flutter.kill('SIGTERM') // our own child, not yet reaped: the pid is certainly it
  const deadline = Date.now() + STOP_GRACE_MS
  while (!exited && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 50))
  if (!exited) flutter.kill('SIGKILL')
  return {ok: true, message: 'stopped'}
}

const server = createServer((socket) => {
  createInterface({input: socket}).on('line', (line) => {
    let asked: SupervisorRequest
    try {
      asked = JSON.parse(line) as SupervisorRequest
    } catch {
      return void socket.end()
    }
    if (asked.op === 'watch') {
      for (const event of events) socket.write(`${JSON.stringify(event)}\n`)
      watchers.add(socket)
      socket.on('close', () => watchers.delete(socket))
    } else if (asked.op === 'restart') {
      void restart(asked.fullRestart === true).then((reply) => socket.end(`${JSON.stringify(reply)}\n`))
    } else if (asked.op === 'stop') {
      void stop().then((reply) => {
        socket.end(`${JSON.stringify(reply)}\n`, () => shutDown())
      })
    }
  })
  socket.on('error', () => {})
})
server.listen(socketPath)

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
  rmSync(dirname(socketPath!), {recursive: true, force: true})
  process.exit(0)
}

process.on('SIGTERM', () => void stop().then(shutDown))
process.on('SIGINT', () => void stop().then(shutDown))
