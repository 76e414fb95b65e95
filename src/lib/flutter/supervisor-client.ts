import {connect, type Socket} from 'node:net'
import {readBoundedLines} from '../bounded-lines.js'
import {TapirError, messageOf} from '../errors.js'
import {isJsonObject, type JsonObject} from '../shape.js'
import type {SupervisorEvent, SupervisorReply, SupervisorRequest} from './supervisor-protocol.js'

/** An event or reply line is far smaller than this; a longer one is not the supervisor's. */
const MAX_LINE_BYTES = 1024 * 1024

function open(socketPath: string): Promise<Socket> {
  return new Promise((resolve, reject) => {
    const socket = connect(socketPath)
    socket.once('connect', () => resolve(socket))
    socket.once('error', reject)
  })
}

/** Asks the supervisor one thing (restart, stop) and waits for its one-line answer. */
export async function askSupervisor(
  socketPath: string,
  request: Exclude<SupervisorRequest, {op: 'watch'}>,
  timeoutMs: number,
): Promise<SupervisorReply> {
  let socket: Socket
  try {
    socket = await open(socketPath)
  } catch (error) {
    throw new TapirError(
      `The supervisor tapir started for this app does not answer (${messageOf(error)}); run \`tapir restart\` or \`tapir stop\`.`,
      'local',
    )
  }
  return new Promise((resolve, reject) => {
    let settled = false
    const settle = (outcome: () => void): void => {
      if (settled) return
      settled = true
      clearTimeout(timer)
      socket.destroy()
      outcome()
    }
    const timer = setTimeout(
      () => settle(() => reject(new TapirError(`The supervisor did not answer within ${timeoutMs} ms.`, 'local'))),
      timeoutMs,
    )
    readBoundedLines(socket, MAX_LINE_BYTES, ({text}) => {
      const reply = parseReply(text)
      settle(() =>
        reply
          ? resolve(reply)
          : reject(
              new TapirError('The supervisor answered with something that is not a reply; run `tapir restart` or `tapir stop`.', 'local'),
            ),
      )
    })
    socket.on('error', () => {}) // the close that follows says it
    socket.once('close', () => settle(() => reject(new TapirError('The supervisor closed the connection without an answer.', 'local'))))
    socket.write(`${JSON.stringify(request)}\n`)
  })
}

/** Follows what the supervisor saw of flutter (all of it so far, then as it comes); `onGone` is
 *  called if the connection ends before `close()`. */
export async function watchSupervisor(
  socketPath: string,
  onEvent: (event: SupervisorEvent) => void,
  onGone: () => void,
): Promise<{close(): void}> {
  const socket = await open(socketPath)
  let closing = false
  readBoundedLines(socket, MAX_LINE_BYTES, ({text}) => {
    const event = parseEvent(text)
    if (event) onEvent(event)
  })
  socket.on('error', () => {}) // the close that follows says it
  socket.once('close', () => closing || onGone())
  socket.write(`${JSON.stringify({op: 'watch'})}\n`)
  return {
    close: () => {
      closing = true
      socket.destroy()
    },
  }
}

function parseJson(line: string): JsonObject | undefined {
  try {
    const value: unknown = JSON.parse(line)
    return isJsonObject(value) ? value : undefined
  } catch {
    return undefined
  }
}

/** An event with the fields its kind needs, or undefined for anything else. */
function parseEvent(line: string): SupervisorEvent | undefined {
  const value = parseJson(line)
  if (!value) return undefined
  const {event, pid, message, url, wsUri, code, error, line: text} = value
  switch (event) {
    case 'flutter':
      return typeof pid === 'number' && Number.isSafeInteger(pid) ? {event: 'flutter', pid} : undefined
    case 'progress':
      return typeof message === 'string' ? {event: 'progress', message} : undefined
    case 'error':
      return typeof text === 'string' ? {event: 'error', line: text} : undefined
    case 'webLaunchUrl':
      return typeof url === 'string' ? {event: 'webLaunchUrl', url} : undefined
    case 'debugPort':
      return typeof wsUri === 'string' ? {event: 'debugPort', wsUri} : undefined
    case 'started':
      return {event: 'started'}
    case 'exited':
      return {event: 'exited', code: typeof code === 'number' ? code : null, ...(typeof error === 'string' ? {error} : {})}
    default:
      return undefined
  }
}

/** The supervisor's one-line reply, or undefined when the line is not one (a swapped socket). */
function parseReply(line: string): SupervisorReply | undefined {
  const value = parseJson(line)
  if (!value) return undefined
  const {ok, message, compileError, restarted, noClient} = value
  if (typeof message !== 'string') return undefined
  if (ok === true) return {ok, message, ...(restarted === true ? {restarted} : {}), ...(noClient === true ? {noClient} : {})}
  if (ok === false) return {ok, message, ...(typeof compileError === 'string' ? {compileError} : {})}
  return undefined
}
