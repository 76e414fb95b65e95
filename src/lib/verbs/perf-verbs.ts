import {resolve, sep} from 'node:path'
import {ParamError} from '../errors.js'
import {checkOutputFile, TRACE_OUTPUT, writeOutputFile} from '../output-file.js'
import {anything, boolean, integer, list, optional, string} from '../shape.js'
import {answer, perfReport, type PerfReport} from '../vm/tapir-answers.js'
import {defineVerb} from './define.js'
import {extensionVerb} from './extension-verb.js'
import {toExtensionParams} from './input.js'
import type {Report, Verb} from './types.js'

/** A field of the app's report as text, `?` when it is missing. */
const shown = (value: string | number | undefined): string => String(value ?? '?')

export const perfBegin = extensionVerb({
  name: 'perf_begin',
  tool: 'tapir_perf_begin',
  title: 'Begin a perf session',
  summary: 'Open a performance session around the interaction you drive next; tapir_perf_end closes it.',
  details: 'Restarts a session that is open.',
  example: '--mode=timing',
  kind: 'action',
  dusk: {on: 'refused'},
  step: 'any',
  record: {as: 'step'},
  params: [
    {
      name: 'mode',
      brief: 'timing: frame times only; attribution profiles (inflates ms).',
      type: 'string',
      default: 'attribution',
      // Sent only when given: the package defaults to attribution, an app with no package to timing.
      defaultInApp: true,
      options: ['attribution', 'timing'],
      description:
        'attribution (the default with the tapir package): blocks, counters and insights (profiling inflates ms); timing: frame timings only (the default, and the only mode, on an app with no package).',
    },
    {
      name: 'phases',
      brief: 'Also profile layout and paint.',
      type: 'boolean',
      default: false,
      description: 'Also profile layout and paint (attribution only; many more spans).',
    },
  ],
  validate(input) {
    if (input.phases === true && input.mode === 'timing')
      throw new ParamError((name) => `${name('phases')} profiles layout and paint, so it needs ${name('mode')} set to attribution.`)
  },
  result: answer({
    sessionToken: optional(string),
    mode: optional(string),
    phases: optional(boolean),
    livenessBaseline: optional(integer),
    restartedPreviousSession: optional(boolean),
  }),
  report: (result): Report => ({
    stdout: `✓ Performance session ${shown(result.sessionToken)} open (${shown(result.mode)}${result.phases === true ? ', with phases' : ''})${result.restartedPreviousSession === true ? '; the session that was open is restarted' : ''}`,
  }),
})

function perfSummary(result: PerfReport): string {
  const {summary, insights = []} = result
  const frames = summary?.frames
  const parts = [
    `✓ Performance session ${shown(result.sessionToken)} closed (${shown(result.mode)}): ${frames?.painted ?? 0} painted frames, ${frames?.overBudget ?? 0} over the ${summary?.budgetMs ?? 16.7}ms budget, worst build ${frames?.buildMs?.worst ?? 0}ms.`,
  ]
  const top = insights[0]
  if (top)
    parts.push(
      `${insights.length} insight(s); top [${shown(top.severity)}] ${shown(top.id)}: ${shown(top.title)} Drill in with tapir:perf_insight --id=${shown(top.id)}, or pass --json for the report.`,
    )
  else parts.push('No insights. Pass --json for the report.')
  return parts.join(' ')
}

const refused = (result: PerfReport) => result.refused === true

export const perfEnd = extensionVerb({
  name: 'perf_end',
  tool: 'tapir_perf_end',
  title: 'End the perf session',
  summary: 'Close the performance session and read its report: frames against the budget and insights.',
  details: 'Refused when the app drew no frames to judge.',
  cliExit: 'exits 1 when it was refused',
  kind: 'action',
  dusk: {on: 'refused'},
  step: 'any',
  record: {as: 'step'},
  params: [],
  result: perfReport,
  failed: refused,
  report: (result): Report =>
    refused(result)
      ? {stderr: [`✗ Performance session ${shown(result.sessionToken)} refused: ${shown(result.reason)}`]}
      : {stdout: perfSummary(result)},
})

export const perfInsight = extensionVerb({
  name: 'perf_insight',
  tool: 'tapir_perf_insight',
  title: 'Explain a perf insight',
  summary: 'Drill into one insight of the last perf report: the frames and blocks behind it.',
  example: '--id=I1',
  exampleBefore: ['tapir tapir:perf_begin', 'tapir tapir:navigate --route=/monitors', 'tapir tapir:perf_end'],
  kind: 'read',
  dusk: {on: 'refused'},
  step: 'any',
  record: {as: 'nothing'},
  params: [
    {
      name: 'id',
      brief: 'I1, I2, ... from tapir_perf_end.',
      type: 'string',
      required: true,
      description: 'Insight id (I1, I2, ...) from the perf_end report.',
      missing: 'Missing --id=<In>. Take an id from tapir:perf_end.',
    },
    {
      name: 'token',
      brief: "The report's sessionToken.",
      type: 'string',
      description: "The report's sessionToken; a token of any other session is refused.",
    },
  ],
  result: answer({sessionToken: optional(string), id: optional(string), severity: optional(string), title: optional(string)}),
  report: (result) => ({stdout: JSON.stringify(result, null, 2)}),
})

/** `perf_trace`: the closed session as a Chrome Trace; tapir writes it with traceEvents first. */
const traceAnswer = answer({traceEvents: list(anything)})

export const perfTrace = defineVerb({
  name: 'perf_trace',
  tool: 'tapir_perf_trace',
  title: 'Write a perf trace',
  dispatch: 'ext.tapir.perf_trace',
  summary: 'Write the last closed performance session as Chrome Trace JSON (Perfetto).',
  example: '--out=build/perf/list.trace.json',
  exampleBefore: ['tapir tapir:perf_begin', 'tapir tapir:navigate --route=/monitors', 'tapir tapir:perf_end'],
  kind: 'set',
  dusk: {on: 'refused'},
  step: 'any',
  record: {as: 'step'},
  params: [
    {name: 'out', type: 'string', required: true, local: true, description: 'File to write.', missing: 'Missing --out=<file>.'},
    {
      name: 'token',
      brief: "The report's sessionToken.",
      type: 'string',
      description: "The session's sessionToken; a stale one is refused.",
    },
  ],
  async execute(call, input) {
    const path = resolve(call.cwd, input.out) + (/[/\\]$/.test(input.out) ? sep : '')
    checkOutputFile(path, TRACE_OUTPUT)
    const params = toExtensionParams(perfTrace.params, input)
    const {traceEvents, ...rest} = await (await call.app()).callExtension('perf_trace', params, traceAnswer, call.deadline)
    writeOutputFile(path, JSON.stringify({traceEvents, ...rest}), TRACE_OUTPUT)
    return {path, traceEvents: traceEvents.length}
  },
  report: (result) => ({stdout: result.path}),
  mcpText: (result) => result.path,
})

export const perfVerbs: Verb[] = [perfBegin, perfEnd, perfInsight, perfTrace]
