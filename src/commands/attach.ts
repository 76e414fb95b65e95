import * as Flags from '@oclif/core/flags'
import type {Outcome} from '../lib/output/outcome.js'
import {linesOutcome} from '../lib/output/outcome.js'
import {redactToken} from '../lib/output/redact-token.js'
import {probeApp} from '../lib/runtime/probe.js'
import type {SessionLocation} from '../lib/session/location.js'
import {writeSession} from '../lib/session/store.js'
import type {VerbContext} from '../lib/verbs/types.js'
import {toWebSocketUri} from '../lib/vm/uri.js'
import {SessionCommand} from '../oclif/session-command.js'
import type {FlagsOf} from '../oclif/tapir-command.js'
import {refuseOverRunningApp} from './start.js'

export default class Attach extends SessionCommand<typeof Attach> {
  static override summary = 'Record an already running Flutter app (its VM Service URI) as the session of this project.'
  static override examples = [
    '<%= config.bin %> attach --uri http://127.0.0.1:8181/AbCdEfGh12s=/',
    '<%= config.bin %> attach --uri ws://127.0.0.1:8181/AbCdEfGh12s=/ws --cdp-port 9222',
  ]
  static override flags = {
    uri: Flags.string({description: 'The VM Service address flutter run printed (http://…/TOKEN=/ or ws://…/TOKEN=/ws).', required: true}),
    'cdp-port': Flags.integer({description: 'Chrome DevTools port of the browser running the Flutter web app.', min: 1, max: 65535}),
  }

  protected override changesSession = true

  protected parseInput() {
    return this.parse(Attach)
  }

  protected async sessionOutcome(flags: FlagsOf<typeof Attach>, location: SessionLocation, context: VerbContext): Promise<Outcome> {
    const vmServiceUri = toWebSocketUri(flags.uri)
    refuseOverRunningApp(location)
    const cdpPort = flags['cdp-port'] ?? null
    writeSession(location, {
      vmServiceUri,
      cdpPort,
      pid: null,
      projectRoot: location.projectRoot,
      device: 'attached',
      startedAt: new Date().toISOString(),
    })
    const probe = await probeApp(vmServiceUri, Math.min(flags.timeout, 5000), context.origin === 'mcp' ? 'mcp' : 'cli')
    const shown = redactToken(vmServiceUri)
    const outcome = linesOutcome(
      [`✓ Attached to ${shown}`, `✓ state=${location.path}`],
      {vmServiceUri: shown, cdpPort, state: location.path, ...probe},
      flags.json,
    )
    if (!probe.answering) outcome.stderr.push(`⚠ The app does not answer yet: ${probe.error}`)
    else if (probe.package === 'dusk')
      outcome.stderr.push(
        '⚠ The app runs Dusk 0.0.1 (ext.dusk.*), not tapir: the verbs 0.0.1 has work; tapir doctor says what is missing and how to move on.',
      )
    else if (!probe.tapir) outcome.stderr.push('⚠ The app answers, but tapir is not installed in it (no ext.tapir.* extensions yet).')
    return outcome
  }
}
