import type {Outcome} from './outcome.js'
import {printable} from './printable.js'

const MARKS = {'✓': 'green', '✗': 'red', '⚠': 'yellow'} as const

/** Colour only on a terminal, and never with NO_COLOR set; chalk is loaded only then, so a
 *  script or an agent piping the output does not pay for it. */
async function painter(stream: NodeJS.WriteStream): Promise<(line: string) => string> {
  if (!stream.isTTY || process.env.NO_COLOR) return (line) => line
  const {Chalk} = await import('chalk')
  const chalk = new Chalk({level: 1})
  return (line) => {
    const colour = MARKS[line[0] as keyof typeof MARKS]
    return colour ? chalk[colour](line[0]) + line.slice(1) : line
  }
}

/** The one place a CLI outcome reaches the terminal and picks the exit code. Pipes get the same
 *  printable text as a terminal: what a script saves is often shown later (a CI log, `less`, an
 *  agent echoing it), and JSON reads back the same either way. Each stderr entry stays one line. */
export async function printOutcome(outcome: Outcome): Promise<void> {
  if (outcome.stdout !== '') process.stdout.write(printable(outcome.stdout).split('\n').map(await painter(process.stdout)).join('\n') + '\n')
  if (outcome.stderr.length > 0) process.stderr.write(outcome.stderr.map((line) => printable(line, true)).map(await painter(process.stderr)).join('\n') + '\n')
  process.exitCode = outcome.exitCode
}

/** A line a still-running command shows at once (stderr, uncoloured: it may be a background job). */
export function printProgress(line: string): void {
  process.stderr.write(`${line}\n`)
}

/** A line of a stream a command follows (`tapir logs --follow`): stdout, at once, printable. */
export function printStreamLine(line: string): void {
  process.stdout.write(`${printable(line)}\n`)
}
