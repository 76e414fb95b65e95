// A run file's problems in its own words: the field, what is expected there, and what it holds
// instead, never the value (the file may be anything). Every problem is said at once.
import {jsonKind} from '../json-kind.js'
import {readAll, type ShapeMismatch} from '../shape.js'
import {runFileShape, type RunFile} from './run-file.js'

/** The most problems listed per file: the rest are counted. */
const MAX_PROBLEMS = 20

/** A value's kind, and what is wrong with a number beyond its kind. */
function kindOf(value: unknown): string {
  if (value === undefined) return 'missing'
  if (typeof value === 'number') {
    if (!Number.isFinite(value)) return 'a number too large to use'
    if (value < 0) return 'a negative number'
    if (!Number.isInteger(value)) return 'a fraction'
  }
  return jsonKind(value)
}

function wording({path, found, expected, problem}: ShapeMismatch): string {
  const where = path === '' ? 'the file' : path
  return problem === undefined ? `${where}: ${expected} is expected, not ${kindOf(found)}` : `${where}: ${problem}`
}

/** The run file `value` is, or every way it differs from one. */
export function readRunFile(value: unknown): {run: RunFile} | {problems: string[]} {
  const read = readAll(runFileShape, value)
  if ('value' in read) return {run: read.value}
  const list = read.mismatches.map(wording)
  return {
    problems: list.length > MAX_PROBLEMS ? [...list.slice(0, MAX_PROBLEMS), `… and ${list.length - MAX_PROBLEMS} more problems`] : list,
  }
}
