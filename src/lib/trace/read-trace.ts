import {TapirError} from '../errors.js'
import {readBoundedText} from '../read-bounded.js'
import {readAs} from '../shape.js'
import {fileError} from '../write-atomic.js'
import {endShape, headerShape, stepShape, TRACE_BOUNDS, TRACE_HEAD, type Trace, type TraceStep} from './format.js'
import {snapshotDiff} from './snapshot-diff.js'

/** A trace may be read a little past its bound: the lines of other processes on a session. */
export const MAX_TRACE_READ_BYTES = TRACE_BOUNDS.maxBytes + 8 * 1024 * 1024

/** Reads a trace file: its header, then each whole line; a line that is not a trace entry (the
 *  last one, cut short when the process was killed) is counted, not fatal. Steps are numbered in
 *  file order, and a step whose diff was not written (a session's trace, written by many
 *  processes) gets it from the snapshot before. */
export function readTrace(path: string): Trace {
  let text: string
  try {
    text = readBoundedText(path, MAX_TRACE_READ_BYTES, {followLinks: false})
  } catch (error) {
    throw fileError('read the trace', path, error)
  }
  return parseTrace(text, path)
}

export function parseTrace(text: string, path: string): Trace {
  if (!text.startsWith(TRACE_HEAD))
    throw new TapirError(
      `${path} is not a tapir trace (its first line is not a trace header). Name a file tapir wrote with --trace.`,
      'usage',
    )
  const lines = text.split('\n').filter((line) => line !== '')
  const header = readAs(headerShape, parse(lines[0]))
  if ('problem' in header) throw new TapirError(`${path} has a header tapir cannot read: ${header.problem}.`, 'usage')
  const trace: Trace = {header: header.value, steps: [], unreadable: 0}
  let before: string | undefined
  for (const line of lines.slice(1)) {
    const value = parse(line)
    const step = readAs(stepShape, value)
    if ('value' in step) {
      const numbered: TraceStep = {...step.value, n: trace.steps.length + 1}
      if (numbered.snapshot !== undefined && numbered.diff === undefined && before !== undefined)
        numbered.diff = snapshotDiff(before, numbered.snapshot, TRACE_BOUNDS.diffLines)
      if (numbered.snapshot !== undefined) before = numbered.snapshot
      trace.steps.push(numbered)
      continue
    }
    const end = readAs(endShape, value)
    if ('value' in end) trace.end = end.value
    else trace.unreadable++
  }
  return trace
}

function parse(line: string | undefined): unknown {
  try {
    const value: unknown = JSON.parse(line ?? '')
    return value
  } catch {
    return undefined
  }
}
