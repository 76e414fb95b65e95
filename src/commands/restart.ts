import {readCommandLine} from '../cli/command-line.js'
import {runCommand} from '../lib/commands/run-command.js'
import {defineCommand} from '../lib/commands/types.js'
import {TapirError} from '../lib/errors.js'
import {EXIT} from '../lib/output/exit-codes.js'
import type {Outcome} from '../lib/output/outcome.js'
import {noSessionError} from '../lib/session/require-session.js'
import type {Session} from '../lib/session/session.js'
import {readOwnSession} from '../lib/session/store.js'
import {START, startInputOf} from './start.js'
import {STOP} from './stop.js'

/** The start options a session may record for restart: a session is the user's own file, but
 *  only these reach start, never --state or anything else. */
const START_OPTION = /^--(device|mode|port|vm-service-port|dds|boot-timeout|fault|cdp-port|web-port)(=|$)/

/** The start flags that bring the same app back: those the first start recorded (every option it
 *  was given), else, for a session from an older tapir, the device, ports and flutter run args. */
export function startArgsOf(session: Session): string[] {
  const recorded = session.startArgs
  if (Array.isArray(recorded) && recorded.every((arg) => typeof arg === 'string')) {
    const dashes = recorded.indexOf('--')
    const options = dashes === -1 ? recorded : recorded.slice(0, dashes)
    if (options.length > 0 && options.every((arg) => START_OPTION.test(arg))) return recorded
    throw new TapirError(
      'The session records start options tapir does not write (startArgs), so restart will not replay them. Run `tapir stop`, then `tapir start` with the options you want.',
      'local',
    )
  }
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

/** A command's --json stdout back as the value it printed (null when it printed nothing, the
 *  text itself should it ever not be JSON, so a restart that worked never reads as failed). */
function jsonOf(text: string): unknown {
  if (text === '') return null
  try {
    return JSON.parse(text) as unknown
  } catch {
    return text
  }
}

/** A start line a user can paste: each argument quoted when the shell would split or expand it. */
function commandLine(args: string[]): string {
  return ['tapir', 'start', ...args.map((arg) => (/^[\w@%+=:,./-]+$/.test(arg) ? arg : `'${arg.replaceAll("'", "'\\''")}'`))].join(' ')
}

export const RESTART = defineCommand({
  id: 'restart',
  summary: 'Stop the app tapir started and start it again, with every option of the first start.',
  description:
    "The same as `tapir stop` then `tapir start` with the options the first start was given: the device, ports, --boot-timeout, the sim's mode and fault knobs, and flutter run's own arguments. A refused stop aborts the restart; a start that fails after the stop says so, and leaves no session.",
  examples: ['<%= config.bin %> restart'],
  params: [],
  globals: 'all',
  session: 'reads',
  async run(flags, context): Promise<Outcome> {
    const {location} = context
    const session = readOwnSession(location)
    if (!session) throw noSessionError(location)
    if (typeof session.device !== 'string' || session.device === 'attached') {
      throw new TapirError(
        'tapir did not start this app (it was attached), so it cannot restart it. Use `tapir hot-restart`, or `tapir start --device=<id>`.',
        'local',
      )
    }
    const startArgs = startArgsOf(session)
    // The session keeps the first start's options as its words: read by start's own params.
    const {values, rest} = readCommandLine(START, startArgs)
    const shared = {json: flags.json, timeout: flags.timeout, ...(flags.state === undefined ? {} : {state: flags.state})}
    const world = {verbs: context.verbs, version: context.version, env: context.env, commands: context.commands}
    const stop = await runCommand(STOP, shared, world)
    if (stop.exitCode !== EXIT.ok) return {...stop, stderr: [...stop.stderr, '✗ The restart stopped there: the app was not stopped.']}
    const start = await runCommand(START, {...startInputOf(values), flutterArgs: rest, ...shared}, world)
    // With --json, one document a script can parse: stop's answer and start's (or its error).
    const stdout = flags.json
      ? JSON.stringify({stop: jsonOf(stop.stdout), start: jsonOf(start.stdout)})
      : [stop.stdout, start.stdout].filter((text) => text !== '').join('\n')
    if (start.exitCode === EXIT.ok) return {...start, stdout, stderr: [...stop.stderr, ...start.stderr]}
    // start undoes what it began, unless it could not end something: then its session names that.
    const after = readOwnSession(location)
      ? 'What could not be ended is in the session: run `tapir stop`.'
      : `Nothing of it runs now; \`${commandLine(startArgs)}\` tries again.`
    return {
      ...start,
      stdout,
      stderr: [...stop.stderr, ...start.stderr, `✗ The app was stopped, but starting it again failed (above). ${after}`],
    }
  },
})
