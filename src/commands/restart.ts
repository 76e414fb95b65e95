import {TapirError} from '../lib/errors.js'
import {EXIT} from '../lib/output/exit-codes.js'
import type {Outcome} from '../lib/output/outcome.js'
import type {SessionLocation} from '../lib/session/location.js'
import {noSessionError} from '../lib/session/require-session.js'
import type {Session} from '../lib/session/session.js'
import {readOwnSession} from '../lib/session/store.js'
import {produceCommand} from './produce-command.js'
import {SessionCommand} from './session-command.js'
import type {FlagsOf} from './tapir-command.js'

/** The start flags that bring the same app back: device and ports, and flutter run's own args. */
export function startArgsOf(session: Session): string[] {
  const number = (value: unknown) => (typeof value === 'number' && Number.isInteger(value) ? value : undefined)
  const args = [`--device=${String(session.device)}`]
  const cdpPort = number(session.cdpPort)
  if (cdpPort !== undefined) args.push(`--cdp-port=${cdpPort}`)
  const webPort = number(session.webPort)
  if (webPort !== undefined && session.device !== 'sim') args.push(`--port=${webPort}`)
  const vmServicePort = number(session.vmServicePort)
  if (vmServicePort !== undefined) args.push(`--vm-service-port=${vmServicePort}`)
  if (session.dds === true) args.push('--dds')
  const extra = Array.isArray(session.flutterArgs) ? session.flutterArgs.filter((arg): arg is string => typeof arg === 'string') : []
  return extra.length > 0 ? [...args, '--', ...extra] : args
}

export default class Restart extends SessionCommand<typeof Restart> {
  static override summary = 'Stop the app tapir started and start it again, on the same device with the same ports.'
  static override description =
    'The same as `tapir stop` then `tapir start` with the device, ports and flutter run arguments of the session. A refused stop aborts the restart.'
  static override examples = ['<%= config.bin %> restart']

  protected parseInput() {
    return this.parse(Restart)
  }

  protected async sessionOutcome(flags: FlagsOf<typeof Restart>, location: SessionLocation): Promise<Outcome> {
    const session = readOwnSession(location)
    if (!session) throw noSessionError(location)
    if (typeof session.device !== 'string' || session.device === 'attached') {
      throw new TapirError(
        'tapir did not start this app (it was attached), so it cannot restart it. Use `tapir hot-restart`, or `tapir start --device=<id>`.',
        'local',
      )
    }
    const shared = [...(flags.state ? [`--state=${flags.state}`] : []), ...(flags.json ? ['--json'] : [])]
    const stop = await produceCommand(this.config, 'stop', shared)
    if (stop.exitCode !== EXIT.ok) return {...stop, stderr: [...stop.stderr, '✗ The restart stopped there: the app was not stopped.']}
    const start = await produceCommand(this.config, 'start', [...shared, ...startArgsOf(session)])
    return {
      ...start,
      stdout: [stop.stdout, start.stdout].filter((text) => text !== '').join('\n'),
      stderr: [...stop.stderr, ...start.stderr],
    }
  }
}
