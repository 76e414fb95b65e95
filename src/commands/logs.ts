import {closeSync, openSync, readSync, statSync} from 'node:fs'
import * as Flags from '@oclif/core/flags'
import {TapirError, messageOf} from '../lib/errors.js'
import {EXIT} from '../lib/output/exit-codes.js'
import type {Outcome} from '../lib/output/outcome.js'
import {printStreamLine} from '../lib/output/print.js'
import {redactToken} from '../lib/output/redact-token.js'
import {supervisorOf} from '../lib/runtime/reload-app.js'
import type {SessionLocation} from '../lib/session/location.js'
import {noSessionError} from '../lib/session/require-session.js'
import {readOwnSession} from '../lib/session/store.js'
import {SessionCommand} from './session-command.js'
import type {FlagsOf} from './tapir-command.js'

const FOLLOW_POLL_MS = 200

/** The bytes of `path` from `offset` on. */
function readFrom(path: string, offset: number): Buffer {
  const size = statSync(path).size
  if (size <= offset) return Buffer.alloc(0)
  const buffer = Buffer.alloc(size - offset)
  const fd = openSync(path, 'r')
  try {
    readSync(fd, buffer, 0, buffer.length, offset)
  } finally {
    closeSync(fd)
  }
  return buffer
}

export default class Logs extends SessionCommand<typeof Logs> {
  static override summary = "Print the app's log: what flutter run and the app printed since tapir start."
  static override description =
    'With --follow it keeps printing new lines until the app stops or you press Ctrl-C. VM Service auth tokens in the log are hidden.'
  static override examples = ['<%= config.bin %> logs', '<%= config.bin %> logs --follow']
  static override flags = {
    follow: Flags.boolean({char: 'f', description: 'Keep printing lines as the app writes them.', default: false}),
  }

  protected parseInput() {
    return this.parse(Logs)
  }

  protected async sessionOutcome(flags: FlagsOf<typeof Logs>, location: SessionLocation): Promise<Outcome> {
    const session = readOwnSession(location)
    if (!session) throw noSessionError(location)
    const log = session.log
    if (typeof log !== 'string') throw new TapirError('This session has no log: only an app tapir started (tapir start) has one.', 'local')
    let text: string
    try {
      text = readFrom(log, 0).toString('utf8')
    } catch (error) {
      throw new TapirError(`Cannot read the log ${log}: ${messageOf(error)}`, 'local')
    }
    const lines = text.split('\n')
    let pending = lines.pop() ?? ''
    if (!flags.follow) return {stdout: [...lines, ...(pending ? [pending] : [])].map(redactToken).join('\n'), stderr: [], exitCode: EXIT.ok}
    for (const line of lines) printStreamLine(redactToken(line))
    let offset = Buffer.byteLength(text)
    let stop = false
    const interrupt = (): void => void (stop = true)
    process.once('SIGINT', interrupt)
    try {
      while (!stop && supervisorOf(session) !== undefined) {
        await new Promise((resolve) => setTimeout(resolve, FOLLOW_POLL_MS))
        const more = readFrom(log, offset)
        offset += more.length
        const parts = (pending + more.toString('utf8')).split('\n')
        pending = parts.pop() ?? ''
        for (const line of parts) printStreamLine(redactToken(line))
      }
    } finally {
      process.off('SIGINT', interrupt)
    }
    const rest = (pending + readFrom(log, offset).toString('utf8')).split('\n')
    for (const line of rest) if (line) printStreamLine(redactToken(line))
    return {stdout: '', stderr: stop ? [] : ['✓ The app has stopped.'], exitCode: EXIT.ok}
  }
}
