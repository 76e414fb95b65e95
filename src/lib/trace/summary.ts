import {isJsonObject} from '../shape.js'
import type {Trace, TraceStep} from './format.js'

/** Most steps a summary lists one by one; past it, the failed steps and the last ones. */
const MAX_LISTED = 30
const MAX_LINE = 160

/** A trace in a few lines an agent can read: what was traced, each step with its result, what
 *  failed and why, and the step after which the first exception appeared. */
export function traceSummary(trace: Trace): string {
  const {header, steps} = trace
  const failed = steps.filter((step) => !step.ok)
  const where = [
    header.app && `app ${header.app}`,
    header.device && `on ${header.device}`,
    header.viewport && `${header.viewport.width}x${header.viewport.height}`,
  ]
    .filter(Boolean)
    .join(' ')
  const lines = [
    `${header.title}: ${steps.length} step${steps.length === 1 ? '' : 's'}, ${failed.length} failed (tapir ${header.tapir}, ${header.source}${where ? `, ${where}` : ''}, started ${header.startedAt}).`,
  ]
  if (!trace.end) lines.push('The trace has no closing line: the process ended before it closed the trace (killed, or still running).')
  if (trace.end?.droppedSteps) lines.push(`${trace.end.droppedSteps} later steps were not written: the trace reached its size bound.`)
  if (trace.unreadable > 0) lines.push(`${trace.unreadable} line(s) could not be read (a line cut short by a crash).`)
  const listed = steps.length <= MAX_LISTED ? steps : steps.filter((step, index) => !step.ok || index >= steps.length - (MAX_LISTED - 10))
  if (listed.length < steps.length) lines.push(`Steps (${steps.length - listed.length} passing ones not listed):`)
  else if (steps.length > 0) lines.push('Steps:')
  for (const step of listed) lines.push(stepLine(step))
  for (const step of failed.slice(0, 5)) lines.push(`Failed: step ${step.n} (${short(step.call)}): ${short(reason(step))}`)
  const thrown = steps.find((step) => (step.exceptions?.length ?? 0) > 0)
  lines.push(
    thrown
      ? `First exception: after step ${thrown.n} (${short(thrown.call)}): ${short(exceptionText(thrown.exceptions?.at(-1)))}`
      : 'No exception was recorded.',
  )
  return lines.join('\n')
}

function stepLine(step: TraceStep): string {
  const result = step.ok ? 'ok' : `FAILED (exit ${step.exitCode})`
  return `${step.n}. [${step.via}] ${short(step.call)}: ${result} in ${Math.round(step.durationMs)} ms${step.route ? ` at ${short(step.route)}` : ''}`
}

/** The line that says why a step failed: its last ✗ line, else its first line of output. */
function reason(step: TraceStep): string {
  const lines = step.output.split('\n').filter((line) => line.trim() !== '')
  return (lines.findLast((line) => line.startsWith('✗')) ?? lines[0] ?? '(no output)').replace(/^✗ /, '')
}

function exceptionText(entry: unknown): string {
  if (!isJsonObject(entry)) return String(entry)
  const {type, message} = entry
  return [type, message].filter((part) => typeof part === 'string').join(': ') || JSON.stringify(entry)
}

const short = (text: string): string => {
  // eslint-disable-next-line no-control-regex -- a summary is one line per fact
  const flat = text.replace(/[\u0000-\u001f\u007f]+/g, ' ').trim()
  return flat.length > MAX_LINE ? `${flat.slice(0, MAX_LINE - 1)}…` : flat
}
