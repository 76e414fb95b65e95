import {setTimeout as delay} from 'node:timers/promises'
import {WebSocket, type RawData} from 'ws'
import {dispatch} from './dispatch.js'
import {ErrorCode, serviceIsolateError, type WireError} from './errors.js'
import {parseFrame, type RpcRequest} from './frames.js'
import {failure, type Reply} from './replies.js'
import {encodeReply} from './reply.js'
import type {ForwardedReply, Peer, SimVm} from './vm.js'

/** One client's WebSocket: reads its frames, answers its requests (through the fault knobs),
 *  carries its events and the requests forwarded to the services it registered. */
export class Connection implements Peer {
  readonly name: string
  readonly streams = new Set<string>()
  readonly services = new Map<string, string>()
  private readonly forwarded = new Map<string, (reply: ForwardedReply) => void>()
  private forwardCount = 0

  constructor(
    private readonly socket: WebSocket,
    private readonly vm: SimVm,
  ) {
    this.name = vm.nextPeerName()
    vm.connect(this)
    socket.on('message', (data, isBinary) => this.receive(data, isBinary))
    socket.on('close', () => this.closed())
    socket.on('error', (error) => vm.violation(`socket error: ${error.message}`))
  }

  send(text: string): void {
    if (this.socket.readyState === WebSocket.OPEN) this.socket.send(text)
  }

  forward(service: string, params: Record<string, unknown>): Promise<ForwardedReply> {
    const id = `sr${this.forwardCount++}`
    return new Promise((resolve) => {
      this.forwarded.set(id, resolve)
      this.send(JSON.stringify({jsonrpc: '2.0', id, method: service, params}))
    })
  }

  private receive(data: RawData, isBinary: boolean): void {
    const frame = parseFrame(data, isBinary, (text) => this.vm.violation(text))
    switch (frame.kind) {
      case 'close':
        this.socket.close(frame.code, frame.reason)
        return
      case 'reply':
        this.settleForwarded(frame.id, frame.message)
        return
      case 'refused':
        this.sendReply(frame.request, failure(frame.error))
        return
      case 'request':
        void this.answer(frame.request)
    }
  }

  /** Faults are read when the request arrives, so a test can change them between calls. */
  private async answer(request: RpcRequest): Promise<void> {
    const {vm} = this
    const {latencyMs, dropSocketOn, hangOn, malformedOn} = vm.faults
    vm.requests.push({method: request.method, params: request.params})
    if (dropSocketOn === request.method) {
      this.socket.terminate()
      return
    }
    if (hangOn === request.method) return
    const reply = await dispatch({vm, peer: this, request})
    const text = encodeReply(vm, request, reply)
    if (text === undefined) return
    if (latencyMs > 0) await delay(latencyMs)
    this.send(malformedOn === request.method ? text.slice(0, Math.ceil(text.length / 2)) : text)
    if (reply.kind === 'result') reply.afterSend?.()
  }

  private sendReply(request: Pick<RpcRequest, 'id' | 'original'>, reply: Reply): void {
    const text = encodeReply(this.vm, request, reply)
    if (text !== undefined) this.send(text)
  }

  private settleForwarded(id: unknown, message: Record<string, unknown>): void {
    const settle = typeof id === 'string' ? this.forwarded.get(id) : undefined
    if (!settle) return
    this.forwarded.delete(id as string)
    settle('error' in message ? {error: message.error as WireError} : {result: message.result})
  }

  private closed(): void {
    this.vm.disconnect(this)
    for (const settle of this.forwarded.values()) settle({error: serviceIsolateError(ErrorCode.serviceDisappeared)})
    this.forwarded.clear()
  }
}
