import {resolve} from 'node:path'
import {UsageError, errorCode, messageOf, type Worded} from '../errors.js'
import {readBoundedText} from '../read-bounded.js'
import {readRunFile} from './run-file-check.js'
import type {RunFile} from './run-file.js'

export const COMPARE_USAGE = 'Usage: tapir:perf_compare <a.json> <b.json>: two files written by tapir:perf_run, the baseline first.'

type Side = 'A' | 'B'
/** A line of the error: worded per surface where it names a verb. */
type Line = string | Worded

/** What is wrong with the run files given, every problem of both, as lines under one heading. */
export class RunFileError extends UsageError {
  constructor(lines: Line[]) {
    super((words) => lines.map((line) => (typeof line === 'string' ? line : line(words))).join('\n'))
  }

  override get multiline(): boolean {
    return true
  }
}

/** The run file, or its problems as lines: a heading naming the side and the file, then one per problem. */
function measuredRun(value: unknown, side: Side, path: string): {run: RunFile} | {lines: Line[]} {
  const read = readRunFile(value)
  if ('problems' in read)
    return {
      lines: [
        (words) => `Run ${side} (${path}) is not a ${words.call('perf_run')} file:`,
        ...read.problems.map((problem) => `- ${problem}`),
      ],
    }
  const {summary} = read.run
  if (summary.repeats === 0)
    return {
      lines: [
        `Run ${side} has no measured repeat: every one was refused (${summary.refused}), so there is nothing to compare. Rerun it with the page in front.`,
      ],
    }
  return read
}

/** Refuses what is not a run file with a measured repeat, naming the side and every problem. */
export function checkRun(value: unknown, side: Side, path: string): RunFile {
  const read = measuredRun(value, side, path)
  if ('lines' in read) throw new RunFileError(read.lines)
  return read.run
}

/** Reads one file as JSON, or says why it cannot be a run file: never with any of its content
 *  (it may be any file an agent was talked into naming). */
function readJson(cwd: string, path: string, side: Side): {value: unknown} | {lines: Line[]} {
  let text: string
  try {
    text = readBoundedText(resolve(cwd, path))
  } catch (error) {
    const code = errorCode(error)
    return {lines: [`Cannot read ${path}: ${code === 'ENOENT' ? 'no such file' : messageOf(error)}`]}
  }
  try {
    return {value: JSON.parse(text)}
  } catch {
    return {lines: [(words) => `Run ${side} (${path}) is not a ${words.call('perf_run')} file: it is not JSON.`]}
  }
}

/** Reads and checks both run files; every problem of both is reported together. */
export function readRuns(cwd: string, a: string, b: string): {a: RunFile; b: RunFile} {
  const read = (path: string, side: Side): {run?: RunFile; lines: Line[]} => {
    const json = readJson(cwd, path, side)
    if ('lines' in json) return json
    const checked = measuredRun(json.value, side, path)
    return 'lines' in checked ? checked : {run: checked.run, lines: []}
  }
  const first = read(a, 'A')
  const second = read(b, 'B')
  if (!first.run || !second.run) throw new RunFileError([...first.lines, ...second.lines])
  return {a: first.run, b: second.run}
}
