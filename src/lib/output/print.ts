import type {Outcome} from './outcome.js'
import {printable} from './printable.js'

const MARKS: Readonly<Record<string, 'green' | 'red' | 'yellow' | undefined>> = {'✓': 'green', '✗': 'red', '⚠': 'yellow'}

/** Colours one line (its leading mark), or leaves it as it is. */
export type Paint = (line: string) => string

export const PLAIN: Paint = (line) => line

/** What an outcome prints, byte for byte, and the code the process exits with. */
export interface RenderedOutcome {
  stdout: string
  stderr: string
  exitCode: number
}

/** Colour only on a terminal, and never with NO_COLOR set. */
export function wantsColour(stream: {isTTY?: boolean}, env: NodeJS.ProcessEnv): boolean {
  return stream.isTTY === true && !env.NO_COLOR
}

/** The one rendering of a CLI outcome. Pipes get the same printable text as a terminal: what a
 *  script saves is often shown later (a CI log, `less`, an agent echoing it), and JSON reads
 *  back the same either way. Each stderr entry stays one line. */
export function renderOutcome(outcome: Outcome, paint: {stdout: Paint; stderr: Paint} = {stdout: PLAIN, stderr: PLAIN}): RenderedOutcome {
  return {
    stdout: outcome.stdout === '' ? '' : paintLines(printable(outcome.stdout), paint.stdout) + '\n',
    stderr: outcome.stderr.length === 0 ? '' : outcome.stderr.map((line) => paint.stderr(printable(line, true))).join('\n') + '\n',
    exitCode: outcome.exitCode,
  }
}

/** Each line painted; without colour the text as it is (a 10,000-line snapshot is not split for nothing). */
function paintLines(text: string, paint: Paint): string {
  return paint === PLAIN ? text : text.split('\n').map(paint).join('\n')
}

/** chalk is loaded only when a stream wants colour, so a script or an agent piping the output
 *  does not pay for it. */
async function painter(stream: NodeJS.WriteStream): Promise<Paint> {
  if (!wantsColour(stream, process.env)) return PLAIN
  const {Chalk} = await import('chalk')
  const chalk = new Chalk({level: 1})
  return (line) => {
    const colour = MARKS[line.charAt(0)]
    return colour ? chalk[colour](line[0]) + line.slice(1) : line
  }
}

/** The one place a CLI outcome reaches the terminal and picks the exit code. */
export async function printOutcome(outcome: Outcome): Promise<void> {
  const {stdout, stderr, exitCode} = renderOutcome(outcome, {stdout: await painter(process.stdout), stderr: await painter(process.stderr)})
  if (stdout !== '') process.stdout.write(stdout)
  if (stderr !== '') process.stderr.write(stderr)
  process.exitCode = exitCode
}

/** A line a still-running command shows at once (stderr, uncoloured: it may be a background job). */
export function printProgress(line: string): void {
  process.stderr.write(`${printable(line, true)}\n`)
}

let reportingStdout = false

/** A reader that stops early (`tapir tapir:snap | head -1`) is no error; any other failure to
 *  write (a full disk) is one line and exit 1, not an uncaught error and a stack. Taken at the
 *  stream's emit, ahead of any listener: oclif's command module adds one that rethrows all but
 *  EPIPE. */
export function reportStdoutFailures(): void {
  if (reportingStdout) return
  reportingStdout = true
  const stdout = process.stdout
  const emit = stdout.emit.bind(stdout)
  let reported = false
  stdout.emit = ((event: string | symbol, ...rest: unknown[]) => {
    if (event !== 'error') return emit(event, ...rest)
    const error = rest[0] as NodeJS.ErrnoException | undefined
    // A closed pipe still reaches listeners that watch for it (`tapir logs` stops); oclif's ignores it.
    if (error?.code === 'EPIPE') return stdout.listenerCount('error') > 0 ? emit(event, ...rest) : true
    if (!reported) {
      reported = true
      process.exitCode = 1
      process.stderr.write(`✗ Cannot write the output: ${printable(String(error?.message), true)}\n`)
    }
    return true
  }) as typeof stdout.emit
}

let stdoutGone = false
let watchingStdout = false

/** Lines of a stream a command prints as it reads them (`tapir logs`): stdout, printable, at the
 *  pace stdout takes them, so a long stream never piles up in memory. False once stdout is gone
 *  (the reader of a pipe closed it, as `tapir logs | head` does): there is no one to print to. */
export async function printStreamLines(lines: string[]): Promise<boolean> {
  if (stdoutGone) return false
  if (!watchingStdout) {
    watchingStdout = true
    process.stdout.on('error', () => (stdoutGone = true))
  }
  if (lines.length === 0) return true
  if (process.stdout.write(lines.map((line) => `${printable(line)}\n`).join(''))) return true
  await new Promise<void>((resolve) => {
    const done = (): void => {
      process.stdout.off('drain', done)
      process.stdout.off('error', done)
      resolve()
    }
    process.stdout.once('drain', done)
    process.stdout.once('error', done)
  })
  return !stdoutGone
}
