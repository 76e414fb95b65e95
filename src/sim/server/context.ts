import type {RpcRequest} from './frames.js'
import type {SimIsolate} from './isolate.js'
import type {Reply} from './replies.js'
import type {Peer, SimVm} from './vm.js'

/** One request being handled: the VM, the client that sent it, the request. */
export interface CallContext {
  vm: SimVm
  peer: Peer
  request: RpcRequest
}

export type Handler = (context: CallContext) => Reply | Promise<Reply>
export type IsolateHandler = (context: CallContext, isolate: SimIsolate) => Reply | Promise<Reply>

export function lookup<T>(table: Readonly<Record<string, T>>, method: string): T | undefined {
  return Object.hasOwn(table, method) ? table[method] : undefined
}
