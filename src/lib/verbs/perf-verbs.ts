import {resolve} from 'node:path'
import {ParamError} from '../errors.js'
import {TRACE_OUTPUT, writeOutputFile} from '../output-file.js'
import {isJsonObject} from '../vm/malformed.js'
import {defineVerb} from './define.js'
import {extensionVerb} from './extension-verb.js'
import {toExtensionParams} from './input.js'
import type {Report, Result, Verb} from './types.js'

/** A scalar field of the app's report as text; anything else (missing, an object) as `?`. */
const shown = (value: unknown): string => (typeof value === 'string' || typeof value === 'number' ? String(value) : '?')

export const perfBegin = extensionVerb({
  name: 'perf_begin',
  tool: 'tapir_perf_begin',
  summary: 'Open a performance session around the interaction you are about to drive (restarts an open one).',
  example: '--mode=timing',
  kind: 'action',
  params: [
    {
      name: 'mode',
      type: 'string',
      default: 'attribution',
      options: ['attribution', 'timing'],
      description: 'attribution: blocks, counters and insights (profiling inflates ms); timing: frame timings only.',
    },
    {name: 'phases', type: 'boolean', default: false, description: 'Also profile layout and paint (attribution only; many more spans).'},
  ],
  validate(input) {
    if (input.phases === true && input.mode === 'timing')
      throw new ParamError((name) => `${name('phases')} profiles layout and paint, so it needs ${name('mode')} set to attribution.`)
  },
  report: (result): Report => ({
    stdout: `✓ Performance session ${shown(result.sessionToken)} open (${shown(result.mode)}${result.phases === true ? ', with phases' : ''})${result.restartedPreviousSession === true ? '; the session that was open is restarted' : ''}`,
  }),
})

function perfSummary(result: Result): string {
  const summary = isJsonObject(result.summary) ? result.summary : {}
  const frames = isJsonObject(summary.frames) ? summary.frames : {}
  const buildMs = isJsonObject(frames.buildMs) ? frames.buildMs : {}
  const insights = Array.isArray(result.insights) ? result.insights.filter(isJsonObject) : []
  const parts = [
    `✓ Performance session ${shown(result.sessionToken)} closed (${shown(result.mode)}): ${shown(frames.painted ?? 0)} painted frames, ${shown(frames.overBudget ?? 0)} over the ${shown(summary.budgetMs ?? 16.7)}ms budget, worst build ${shown(buildMs.worst ?? 0)}ms.`,
  ]
  const top = insights[0]
  if (top)
    parts.push(
      `${insights.length} insight(s); top [${shown(top.severity)}] ${shown(top.id)}: ${shown(top.title)} Drill in with tapir:perf_insight --id=${shown(top.id)}, or pass --json for the report.`,
    )
  else parts.push('No insights. Pass --json for the report.')
  return parts.join(' ')
}

const refused = (result: Result) => result.refused === true

export const perfEnd = extensionVerb({
  name: 'perf_end',
  tool: 'tapir_perf_end',
  summary: 'Close the performance session and read its report (refused when the app drew no frames to judge).',
  cliExit: 'exits 1 when it was refused',
  kind: 'action',
  params: [],
  failed: refused,
  report: (result): Report =>
    refused(result)
      ? {stderr: [`✗ Performance session ${shown(result.sessionToken)} refused: ${shown(result.reason)}`]}
      : {stdout: perfSummary(result)},
})

export const perfInsight = extensionVerb({
  name: 'perf_insight',
  tool: 'tapir_perf_insight',
  summary: 'Drill into one insight of the last closed performance session: the frames and blocks behind it.',
  example: '--id=I1',
  exampleBefore: ['tapir tapir:perf_begin', 'tapir tapir:navigate --route=/monitors', 'tapir tapir:perf_end'],
  kind: 'read',
  params: [
    {
      name: 'id',
      type: 'string',
      required: true,
      description: 'Insight id (I1, I2, ...) from the perf_end report.',
      missing: 'Missing --id=<In>. Take an id from tapir:perf_end.',
    },
    {name: 'token', type: 'string', description: "The report's sessionToken; a token of any other session is refused."},
  ],
  report: (result) => ({stdout: JSON.stringify(result, null, 2)}),
})

export const perfTrace = defineVerb({
  name: 'perf_trace',
  tool: 'tapir_perf_trace',
  dispatch: 'ext.tapir.perf_trace',
  summary: 'Write the last closed performance session as a Chrome Trace JSON file and print its absolute path.',
  example: '--out=build/perf/list.trace.json',
  exampleBefore: ['tapir tapir:perf_begin', 'tapir tapir:navigate --route=/monitors', 'tapir tapir:perf_end'],
  kind: 'action',
  params: [
    {name: 'out', type: 'string', required: true, local: true, description: 'File to write.', missing: 'Missing --out=<file>.'},
    {name: 'token', type: 'string', description: "The session's sessionToken; a stale one is refused."},
  ],
  async execute(call, input): Promise<Result> {
    const trace = await (await call.app()).callExtension('perf_trace', toExtensionParams(perfTrace.params, input), call.deadline)
    const path = resolve(call.cwd, input.out)
    const {traceEvents, ...rest} = trace
    writeOutputFile(path, JSON.stringify({traceEvents: Array.isArray(traceEvents) ? traceEvents : [], ...rest}), TRACE_OUTPUT)
    return {path, traceEvents: Array.isArray(trace.traceEvents) ? trace.traceEvents.length : 0}
  },
  report: (result) => ({stdout: String(result.path)}),
  mcpText: (result) => String(result.path),
})

export const perfVerbs: Verb[] = [perfBegin, perfEnd, perfInsight, perfTrace]
