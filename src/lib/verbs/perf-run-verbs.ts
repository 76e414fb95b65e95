import {campaignLines} from '../perf/campaign-lines.js'
import {COMPARE_USAGE, readRuns} from '../perf/compare-input.js'
import {renderComparison} from '../perf/compare-table.js'
import {compareRuns, hasErrorRegression} from '../perf/compare.js'
import {defineVerb} from './define.js'
import {HTML_PARAM, htmlPath, PERF_CAMPAIGN_PARAMS, PERF_RUN_PARAMS} from './perf-run-params.js'
import type {runScenario} from './perf-run.js'
import type {Report, Verb} from './types.js'

const reportLine = (result: object): string => ('html' in result && typeof result.html === 'string' ? `\nreport: ${result.html}` : '')

export const perfCompare = defineVerb({
  name: 'perf_compare',
  tool: 'tapir_perf_compare',
  title: 'Compare perf runs',
  dispatch: 'local:perf_compare',
  summary: 'Compare tapir_perf_run files a (baseline) and b beyond noise; an error-level regression fails.',
  details: 'Noise is taken as the repeat-to-repeat range of each run.',
  cliExit: 'exits 1 on an error-level regression',
  example: 'build/perf/list-before.json build/perf/list-after.json',
  exampleWithoutApp: true,
  positional: ['a', 'b'],
  kind: 'read',
  dusk: {on: 'unchanged', note: 'compares two report files; the app is not asked', tool: null},
  step: 'never',
  record: {as: 'nothing'},
  params: [
    {
      name: 'a',
      brief: 'Baseline run file.',
      type: 'string',
      required: true,
      local: true,
      description: 'Baseline run file.',
      missing: COMPARE_USAGE,
    },
    {
      name: 'b',
      brief: 'Candidate run file.',
      type: 'string',
      required: true,
      local: true,
      description: 'Candidate run file.',
      missing: COMPARE_USAGE,
    },
    {
      name: 'json',
      brief: 'JSON instead of the table.',
      type: 'boolean',
      local: true,
      mcpOnly: true,
      description: 'Return the JSON result instead of the table.',
    },
    HTML_PARAM,
  ],
  async execute(context, input) {
    const {a, b} = readRuns(context.cwd, input.a, input.b)
    const comparison = compareRuns(a, b)
    const html = htmlPath(context.cwd, input.html)
    if (html === undefined) return {...comparison}
    const {writeCompareReport} = await import('../perf/report/write.js')
    writeCompareReport(html, {a, b, comparison, aPath: input.a, bPath: input.b})
    return {...comparison, html}
  },
  failed: (result) => hasErrorRegression(result),
  mcpIsError: (result) => hasErrorRegression(result),
  report: (result) => ({stdout: renderComparison(result) + reportLine(result)}),
  mcpText: (result, input) => (input.json === true ? JSON.stringify(result) : renderComparison(result) + reportLine(result)),
})

type RunResult = Awaited<ReturnType<typeof runScenario>>

const noneMeasured = (result: RunResult): boolean => result.summary.repeats === 0

function runLine(run: RunResult): Report {
  const {repeats, refused, frames} = run.summary
  const against = `${run.againstPath ? ` and ${run.againstPath}` : ''}${run.html ? `; report ${run.html}` : ''}`
  if (repeats === 0)
    return {
      stderr: [
        `✗ perf_run ${run.scenario.name}: every repeat was refused (${refused}), so nothing was measured; wrote ${run.path}${against}. Bring the app to the front and rerun.`,
      ],
    }
  return {
    stdout: `✓ perf_run ${run.scenario.name}: ${repeats} repeat(s) measured, ${refused} refused, ${frames.painted} painted frames (median); wrote ${run.path}${against}`,
  }
}

export const perfRunVerb = defineVerb({
  name: 'perf_run',
  tool: 'tapir_perf_run',
  title: 'Run a perf scenario',
  dispatch: 'local:perf_run',
  summary: 'Measure a scenario YAML over several clean repeats and write a run file, for tapir_perf_compare.',
  details: 'Each repeat runs the setup, perf_begin, the steps and perf_end; the run file is <out>/<scenario>-<label>.json.',
  cliExit: 'exits 1 when no repeat was measured',
  example: 'perf/list.yaml --label=before',
  exampleBefore: ["export PERF_PASSWORD=hunter22   # the scenario's secret (the sim takes any password of 4 or more characters)"],
  positional: ['scenario'],
  kind: 'destructive',
  dusk: {on: 'refused'},
  step: 'last',
  record: {as: 'step'},
  params: PERF_RUN_PARAMS,
  execute: async (context, input) => (await import('./perf-run.js')).runScenario(context, input),
  failed: noneMeasured,
  mcpIsError: noneMeasured,
  report: runLine,
  mcpText: (result, input) =>
    input.json === true ? JSON.stringify(result) : [runLine(result).stdout, ...(runLine(result).stderr ?? [])].filter(Boolean).join('\n'),
})

export const perfCampaign = defineVerb({
  name: 'perf_campaign',
  tool: null,
  title: 'Run a perf campaign',
  dispatch: 'local:perf_campaign',
  summary:
    'Run every scenario of a campaign file on a freshly started app (stop, start, perf_run), with hooks and retries; exits 0 only when every scenario passed.',
  example: 'perf/campaign.yaml --platform=sim --label=nightly',
  exampleBefore: ['export PERF_PASSWORD=hunter22'],
  exampleWithoutApp: true,
  positional: ['campaign'],
  kind: 'destructive',
  dusk: {on: 'refused'},
  step: 'never',
  record: {as: 'comment', why: 'not a tapir:run step'},
  params: PERF_CAMPAIGN_PARAMS,
  execute: async (context, input) => (await import('./perf-run.js')).runCampaignFile(context, input),
  failed: (result) => !result.results.every((entry) => entry.status === 'ok'),
  report: (result) => ({stdout: campaignLines(result).join('\n')}),
})

export const perfRunVerbs: Verb[] = [perfRunVerb, perfCompare, perfCampaign]
