import type {Outcome} from './outcome.js'

const COLOURS: Record<string, number> = {'✓': 32, '✗': 31, '⚠': 33}

function colourFor(stream: NodeJS.WriteStream): boolean {
  return Boolean(stream.isTTY) && !process.env.NO_COLOR && process.env.FORCE_COLOR !== '0'
}

/** Colours a line's leading status mark (✓ green, ✗ red, ⚠ yellow). */
function paint(line: string, colour: boolean): string {
  const code = COLOURS[line[0] ?? '']
  return colour && code ? `\u001B[${code}m${line[0]}\u001B[39m${line.slice(1)}` : line
}

/** The one place a CLI outcome reaches the terminal and picks the exit code. */
export function printOutcome(outcome: Outcome): void {
  if (outcome.stdout !== '') {
    const colour = colourFor(process.stdout)
    process.stdout.write(outcome.stdout.split('\n').map((line) => paint(line, colour)).join('\n') + '\n')
  }
  if (outcome.stderr.length > 0) {
    const colour = colourFor(process.stderr)
    process.stderr.write(outcome.stderr.map((line) => paint(line, colour)).join('\n') + '\n')
  }
  process.exitCode = outcome.exitCode
}
