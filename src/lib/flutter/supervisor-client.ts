import {connect, type Socket} from 'node:net'
import {createInterface} from 'node:readline'
import {TapirError, messageOf} from '../errors.js'
import type {SupervisorEvent, SupervisorReply, SupervisorRequest} from './supervisor-protocol.js'

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
    const timer = setTimeout(() => {
      socket.destroy()
      reject(new TapirError(`The supervisor did not answer within ${timeoutMs} ms.`, 'local'))
    }, timeoutMs)
    createInterface({input: socket}).once('line', (line) => {
      clearTimeout(timer)
      socket.end()
      const reply = parseReply(line)
      if (reply) resolve(reply)
      else
        reject(new TapirError('The supervisor answered with something that is not a reply; run `tapir restart` or `tapir stop`.', 'local'))
    })
    socket.once('close', () => {
      clearTimeout(timer)
      reject(new TapirError('The supervisor closed the connection without an answer.', 'local'))
    })
    socket.write(`${JSON.stringify(request)}\n`)
  })
}

/** Follows what the supervisor saw of flutter (all of it so far, then as it comes). */
export async function watchSupervisor(socketPath: string, onEvent: (event: SupervisorEvent) => void): Promise<{close(): void}> {
  const socket = await open(socketPath)
  createInterface({input: socket}).on('line', (line) => {
    try {
      onEvent(JSON.parse(line) as SupervisorEvent)
    } catch {
      // a torn line: nothing to follow
    }
  })
  socket.on('error', () => {})
  socket.write(`${JSON.stringify({op: 'watch'})}\n`)
  return {close: () => socket.destroy()}
}

/** The supervisor's one-line reply, or undefined when the line is not one (a swapped socket). */
function parseReply(line: string): SupervisorReply | undefined {
  let value: unknown
  try {
    value = JSON.parse(line)
  } catch {
    return undefined
  }
  if (!value || typeof value !== 'object') return undefined
  const {ok, message, compileError} = value as Record<string, unknown>
  if (typeof message !== 'string') return undefined
  if (ok === true) return {ok, message}
  if (ok === false) return {ok, message, ...(typeof compileError === 'string' ? {compileError} : {})}
  return undefined
}
