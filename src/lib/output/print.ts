import {Chalk} from 'chalk'
import type {Outcome} from './outcome.js'

const MARKS = {'✓': 'green', '✗': 'red', '⚠': 'yellow'} as const

/** Colour only on a terminal, and never with NO_COLOR set. */
function painter(stream: NodeJS.WriteStream): (line: string) => string {
  const chalk = new Chalk({level: stream.isTTY && !process.env.NO_COLOR ? 1 : 0})
  return (line) => {
    const colour = MARKS[line[0] as keyof typeof MARKS]
    return colour ? chalk[colour](line[0]) + line.slice(1) : line
  }
}

/** The one place a CLI outcome reaches the terminal and picks the exit code. */
export function printOutcome(outcome: Outcome): void {
  if (outcome.stdout !== '') process.stdout.write(outcome.stdout.split('\n').map(painter(process.stdout)).join('\n') + '\n')
  if (outcome.stderr.length > 0) process.stderr.write(outcome.stderr.map(painter(process.stderr)).join('\n') + '\n')
  process.exitCode = outcome.exitCode
}
