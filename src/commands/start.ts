import * as Flags from '@oclif/core/flags'
import {TapirError} from '../lib/errors.js'
import {EXIT} from '../lib/output/exit-codes.js'
import type {Outcome} from '../lib/output/outcome.js'
import {linesOutcome} from '../lib/output/outcome.js'
import {SIM_MAIN, startSimInBackground} from '../lib/runtime/background-sim.js'
import type {SessionLocation} from '../lib/session/location.js'
import {isOurs} from '../lib/session/process.js'
import {readOwnSession, writeSession} from '../lib/session/store.js'
import {redactToken} from '../lib/output/redact-token.js'
import {toWebSocketUri} from '../lib/vm/uri.js'
import {SessionCommand} from './session-command.js'

/** Refuses to record another app over one tapir started and that still runs. */
export function refuseOverRunningApp(location: SessionLocation): void {
  const pid = readOwnSession(location)?.pid
  if (typeof pid === 'number' && isOurs(pid, SIM_MAIN)) {
    throw new TapirError(`An app tapir started is still running for this project (pid ${pid}). Run \`tapir stop\` first.`, EXIT.failed)
  }
}

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
    refuseOverRunningApp(location)
    const log = location.path.replace(/(\.json)?$/, '.sim.log')
    const sim = await startSimInBackground({mode: flags.mode as 'vm' | 'dds', port: flags.port as number, logFile: log, timeoutMs: Math.min(flags.timeout as number, 15_000)})
    const vmServiceUri = toWebSocketUri(sim.httpUri)
    writeSession(location, {vmServiceUri, cdpPort: null, pid: sim.pid, projectRoot: location.projectRoot, device: 'sim', startedAt: new Date().toISOString(), log})
    const shown = redactToken(vmServiceUri)
    return linesOutcome([`✓ sim pid=${sim.pid}`, `✓ vmServiceUri=${shown}`, `✓ state=${location.path}`, `✓ log=${log}`], {pid: sim.pid, vmServiceUri: shown, state: location.path, log}, flags.json === true)
  }
}
