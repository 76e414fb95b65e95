import * as Flags from '@oclif/core/flags'
import type {SessionLocation} from '../lib/session/location.js'
import {isAlive} from '../lib/session/process.js'
import {checkOwnership} from '../lib/session/require-session.js'
import {readSession, writeSession} from '../lib/session/store.js'
import {TapirError} from '../lib/errors.js'
import type {Outcome} from '../lib/output/outcome.js'
import {startSimInBackground} from '../lib/runtime/background-sim.js'
import {redactToken, toWebSocketUri} from '../lib/vm/uri.js'
import {SessionCommand} from './session-command.js'

export default class Start extends SessionCommand {
  static override summary = 'Start an app in the background and record it as the session of this project.'
  static override description =
    'Today the device is the simulated app (--device=sim): a Flutter app double that answers every ext.tapir.* verb, so tapir can be tried with no Flutter installed. For a real app, run it with `flutter run` and use `tapir attach --uri <VM Service URI>`.'
  static override examples = ['<%= config.bin %> start --device=sim', '<%= config.bin %> start --device=sim --mode=dds']
  static override flags = {
    device: Flags.string({description: 'What to run.', options: ['sim'], required: true}),
    mode: Flags.string({description: 'How the simulated VM Service is fronted: vm (direct) or dds (behind a Dart Development Service redirect).', options: ['vm', 'dds'], default: 'vm'}),
    port: Flags.integer({description: 'Port of the VM Service (0 picks a free one).', default: 0, min: 0, max: 65535}),
  }

  protected async sessionOutcome(flags: Record<string, unknown>, location: SessionLocation): Promise<Outcome> {
    const existing = readSession(location)
    if (existing) checkOwnership(location, existing, process.cwd())
    if (existing && typeof existing.pid === 'number' && isAlive(existing.pid)) {
      throw new TapirError(`An app is already running for this project (pid ${existing.pid}). Run \`tapir stop\` first.`, 1)
    }
    const sim = await startSimInBackground({
      mode: flags.mode as 'vm' | 'dds',
      port: flags.port as number,
      logFile: location.path.replace(/[^/\\]+$/, 'sim.log'),
      timeoutMs: Math.min(flags.timeout as number, 15_000),
    })
    const vmServiceUri = toWebSocketUri(sim.httpUri)
    writeSession(location, {
      vmServiceUri,
      cdpPort: null,
      pid: sim.pid,
      projectRoot: location.projectRoot,
      device: 'sim',
      startedAt: new Date().toISOString(),
    })
    return {stdout: [`✓ sim pid=${sim.pid}`, `✓ vmServiceUri=${redactToken(vmServiceUri)}`, `✓ state=${location.path}`].join('\n'), stderr: [], exitCode: 0}
  }
}
