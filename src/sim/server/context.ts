import type {RpcRequest} from './frames.js'
import type {SimIsolate} from './isolate.js'
import type {Outcome} from './outcome.js'
import type {Peer, SimVm} from './vm.js'

/** One request being handled: the VM, the client that sent it, the request. */
export interface CallContext {
  vm: SimVm
  peer: Peer
  request: RpcRequest
}

export type Handler = (context: CallContext) => Outcome | Promise<Outcome>
export type IsolateHandler = (context: CallContext, isolate: SimIsolate) => Outcome | Promise<Outcome>

export function lookup<T>(table: Readonly<Record<string, T>>, method: string): T | undefined {
  return Object.hasOwn(table, method) ? table[method] : undefined
}
