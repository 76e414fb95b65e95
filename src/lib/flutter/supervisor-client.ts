import {connect, type Socket} from 'node:net'
import {createInterface} from 'node:readline'
import {TapirError} from '../errors.js'
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
      `The supervisor tapir started for this app does not answer (${(error as Error).message}); run \`tapir restart\` or \`tapir stop\`.`,
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
      resolve(JSON.parse(line) as SupervisorReply)
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
