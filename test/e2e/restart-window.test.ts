import {describe, expect, it} from 'vitest'
import type {SimMode} from '../../src/sim/index.js'
import {withSimSession} from '../helpers/sim.js'

// Right after a hot restart the new isolate runs main() again, and until TapirPlugin.install()
// has registered ext.tapir.* once more, a call to one answers -32601 (the VM; DWDS's Chrome proxy
// checks its live list, chrome_proxy_service.dart `_callServiceExtension`) or fails in the page
// (DWDS in WebSocket mode). The VM and DWDS post ServiceExtensionAdded on the Isolate stream as
// each one comes back (proxy_service.dart `parseRegisterEvent`). docs/dwds-and-vm.md.

// On the web an attached restart recompiles through flutter's reloadSources (flutter_tools
// registers it in both DWDS modes), so these sims run with flutter's services.
const modes: Array<[SimMode, string]> = [
  ['vm', "flutter run's hotRestart service on a Dart VM"],
  ['dwds', "flutter's reloadSources, then DWDS's hotRestart (Chrome proxy)"],
  ['dwds-websocket', "flutter's reloadSources, then DWDS's hotRestart (WebSocket mode)"],
]

describe.each(modes)('the verb after `tapir hot-restart` through %s', (mode, _how) => {
  const s = withSimSession({mode, flutterTool: true, restartRegistrationMs: 2500})

  it('waits for tapir on the new isolate and answers, in the next tapir process', async () => {
    const restarted = await s.run(['hot-restart'])
    expect(restarted.stderr).toBe('')
    expect(restarted.exitCode).toBe(0)
    const snap = await s.run(['tapir:snap'])
    expect(snap.stderr).toBe('')
    expect(snap.exitCode).toBe(0)
    expect(snap.stdout).toContain('Sign in')
    // DWDS in WebSocket mode keeps its isolate across the restart (dev_handler.dart _handleIsolateStart).
    const snaps = s.sim.requests.filter((request) => request.method === 'ext.tapir.snap')
    if (mode !== 'vm') expect(snaps.at(-1)!.params.isolateId).toBe(mode === 'dwds' ? '2' : '1')
  }, 30_000)
})

describe('a restart whose app takes longer than the wait to register tapir', () => {
  const s = withSimSession({mode: 'dds', flutterTool: true, restartRegistrationMs: 40_000})

  it('says the app is still restarting, not that tapir is not installed, exit 3', async () => {
    expect((await s.run(['hot-restart'])).exitCode).toBe(0)
    const snap = await s.run(['tapir:snap'])
    expect(snap.exitCode).toBe(3)
    expect(snap.stderr).toMatch(/^✗ The app restarted \d+ s ago and its new isolate has not registered ext\.tapir\.snap yet/)
    expect(snap.stderr).not.toContain('not installed')
  }, 40_000)
})
