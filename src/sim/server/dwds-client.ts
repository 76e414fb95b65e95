import type {ForwardedReply, Peer, SimVm} from './vm.js'

/**
 * The client DWDS opens on the DDS in front of it (without DDS, on its own registry, where the
 * services keep their bare names), to register the services only it can run (alias `DWDS`):
 * `hotRestart`, which restarts the page's app without recompiling anything (whatever a hot
 * reload last built stays), and `fullReload`, a page reload, which for the app is the same: a
 * new isolate with fresh state.
 */
export function attachDwdsClient(vm: SimVm): Peer {
  const peer: Peer = {
    name: vm.nextPeerName(),
    streams: new Set(),
    // ChromeDwdsVmClient registers both; WebSocketDwdsVmClient only hotRestart (dwds_vm_client.dart).
    services: new Map(
      vm.websocket
        ? [['hotRestart', 'DWDS']]
        : [
            ['hotRestart', 'DWDS'],
            ['fullReload', 'DWDS'],
          ],
    ),
    send: () => {},
    async forward(service): Promise<ForwardedReply> {
      if (!peer.services.has(service)) return {error: {code: -32601, message: `Unknown service: ${service}`}}
      vm.hotRestart()
      return {result: {type: 'Success'}}
    },
  }
  vm.connect(peer)
  return peer
}
