import type {ForwardedReply, Peer, SimVm} from './vm.js'

/** How long the stand-in for `flutter run` takes to recompile before it restarts the isolate. */
const RESTART_COMPILE_MS = 30

/**
 * The client `flutter run` keeps on its app's VM Service: it registers `hotRestart` (and a
 * hot restart is then an isolate replacement, §5.4 of the protocol notes). `tapir start
 * --device=sim` stands for `flutter run`, so its sim has this client too.
 */
export function attachFlutterTool(vm: SimVm): Peer {
  const peer: Peer = {
    name: vm.nextPeerName(),
    streams: new Set(),
    services: new Map([['hotRestart', 'Flutter Tools']]),
    send: () => {},
    async forward(service): Promise<ForwardedReply> {
      if (service !== 'hotRestart') return {error: {code: -32601, message: `Unknown service: ${service}`}}
      await new Promise(resolve => setTimeout(resolve, RESTART_COMPILE_MS))
      await vm.restartIsolate()
      return {result: {type: 'Success'}}
    },
  }
  vm.connect(peer)
  return peer
}
