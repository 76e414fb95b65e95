import {resolve} from 'node:path'
import {UsageError} from '../errors.js'
import {checkOutputFile, REPORT_OUTPUT} from '../output-file.js'
import {browserFor} from '../perf/browser-control.js'
import {campaignLines, runCampaign} from '../perf/campaign.js'
import {COMPARE_USAGE, readRuns} from '../perf/compare-input.js'
import {renderComparison} from '../perf/compare-table.js'
import {compareRuns, hasErrorRegression} from '../perf/compare.js'
import {perfApp} from '../perf/perf-app.js'
import {platformOfDevice} from '../perf/platforms.js'
import {perfRun} from '../perf/runner.js'
import {loadScenario} from '../perf/scenario-file.js'
import {PLATFORMS, type Platform} from '../perf/scenario-types.js'
import {Deadline} from '../vm/deadline.js'
import {defineVerb, params} from './define.js'
import type {InputOf, Report, Verb, VerbCall} from './types.js'

const platformNamed = (name: string | undefined): Platform | undefined => PLATFORMS.find((platform) => platform === name)

const HTML_PARAM = {
  name: 'html',
  type: 'string',
  local: true,
  addition: true,
  description: 'Also write a self-contained HTML report (frame-time charts against the budget) to this file.',
} as const

/** The report file asked for, resolved; an empty path is refused. */
function htmlPath(cwd: string, html: string | undefined): string | undefined {
  if (html === undefined) return undefined
  if (html.trim() === '') throw new UsageError('--html needs a file to write the report to, e.g. --html=build/perf/report.html.')
  return resolve(cwd, html)
}

const reportLine = (result: object): string => ('html' in result && typeof result.html === 'string' ? `\nreport: ${result.html}` : '')

export const perfCompare = defineVerb({
  name: 'perf_compare',
  tool: 'tapir_perf_compare',
  dispatch: 'local:perf_compare',
  summary:
    'Judge run B against run A (two tapir:perf_run files) per painted frame, noise taken as the repeat-to-repeat range; an error-level regression fails it. Needs no app.',
  cliExit: 'exits 1 on an error-level regression',
  example: 'build/perf/list-before.json build/perf/list-after.json',
  exampleWithoutApp: true,
  positional: ['a', 'b'],
  kind: 'read',
  params: [
    {name: 'a', type: 'string', required: true, local: true, description: 'Baseline run file.', missing: COMPARE_USAGE},
    {name: 'b', type: 'string', required: true, local: true, description: 'Candidate run file.', missing: COMPARE_USAGE},
    {name: 'json', type: 'boolean', local: true, mcpOnly: true, description: 'Return the JSON result instead of the table.'},
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

const PERF_RUN_PARAMS = params(
  {
    name: 'scenario',
    type: 'string',
    required: true,
    local: true,
    description: 'Scenario YAML path.',
    missing: 'Missing the scenario: tapir:perf_run <scenario.yaml> (or --scenario=<file>).',
  },
  {
    name: 'variant',
    type: 'string',
    local: true,
    description: 'The variants key to run: required when the file declares variants, refused when it does not; applies to against too.',
  },
  {name: 'label', type: 'string', default: 'run', local: true, description: 'Names the run file: lower-case letters, digits, _ and -.'},
  {name: 'out', type: 'string', default: 'build/perf', local: true, description: 'Output directory of the run file.'},
  {name: 'repeat', type: 'integer', minimum: 1, local: true, description: "Repeats per series; overrides the scenario's."},
  {
    name: 'platform',
    type: 'string',
    options: PLATFORMS,
    local: true,
    description: "chrome, android, ios or sim; read from the session's device when omitted.",
  },
  {
    name: 'timing',
    type: 'boolean',
    local: true,
    description: 'Interleaved timing-mode repeats, the milliseconds tapir:perf_compare gates on.',
  },
  {name: 'against', type: 'string', local: true, description: 'A baseline scenario run in the same rounds, written to its own file.'},
  {name: 'semantics-pass', type: 'boolean', local: true, description: 'Also measure with the semantics tree released (semanticsOff).'},
  {name: 'json', type: 'boolean', local: true, mcpOnly: true, description: 'Return the run file minus repeats[], plus path.'},
  HTML_PARAM,
)

const LABEL = /^[a-z0-9_-]+$/
/** Insights the --json answer keeps (the run file has them all). */
const JSON_INSIGHTS = 6

/** Runs a scenario file: its setup, steps and perf_end per repeat, and writes the run file(s).
 *  The result is the run file without its repeats (and only the top insights), and where it is. */
export async function runScenario(context: VerbCall, input: InputOf<typeof PERF_RUN_PARAMS>) {
  const label = input.label ?? 'run'
  if (!LABEL.test(label)) throw new UsageError(`--label must be lower-case letters, digits, _ and - (got "${label}").`)
  const target = context.target?.() ?? {}
  const platform = platformNamed(input.platform) ?? platformOfDevice(target.device)
  const load = (path: string) => loadScenario(resolve(context.cwd, path), {variant: input.variant, env: process.env})
  const scenario = load(input.scenario)
  const against = input.against === undefined ? undefined : load(input.against)
  if (against && against.name === scenario.name)
    throw new UsageError(
      `The baseline (against) is a scenario named "${scenario.name}" too, so both would be written to ${scenario.name}-${label}.json. Give the baseline scenario another name.`,
    )
  const html = htmlPath(context.cwd, input.html)
  if (html !== undefined) checkOutputFile(html, REPORT_OUTPUT)
  for (const each of [scenario, ...(against ? [against] : [])]) {
    if (!each.platforms.includes(platform))
      throw new UsageError(`Scenario ${each.name} does not run on ${platform} (platforms: ${each.platforms.join(', ')}).`)
  }
  const [main, baseline] = await perfRun(
    {
      scenario,
      against,
      label,
      outDir: resolve(context.cwd, input.out ?? 'build/perf'),
      repeat: input.repeat,
      platform,
      timing: input.timing === true,
      semanticsPass: input['semantics-pass'] === true,
      device: target.device,
    },
    {
      app: async () => perfApp(await context.appWithin(new Deadline(context.timeoutMs)), context.timeoutMs),
      browser: browserFor(context.chrome(), context.timeoutMs),
      progress: (line) => context.progress?.(line),
    },
  )
  if (html !== undefined) {
    const {writeRunReport} = await import('../perf/report/write.js')
    writeRunReport(html, main!.run, main!.path)
  }
  const {repeats: _repeats, insights, ...shown} = main!.run
  return {
    ...shown,
    insights: insights.slice(0, JSON_INSIGHTS),
    path: main!.path,
    ...(baseline ? {againstPath: baseline.path} : {}),
    ...(html === undefined ? {} : {html}),
  }
}

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
  dispatch: 'local:perf_run',
  summary:
    'Run a scenario YAML several times from a clean start (setup, perf_begin, the steps, perf_end) and write <out>/<scenario>-<label>.json.',
  cliExit: 'exits 1 when no repeat was measured',
  example: 'perf/list.yaml --label=before',
  exampleBefore: ["export PERF_PASSWORD=hunter22   # the scenario's secret (the sim's password)"],
  positional: ['scenario'],
  kind: 'destructive',
  params: PERF_RUN_PARAMS,
  execute: runScenario,
  failed: noneMeasured,
  mcpIsError: noneMeasured,
  report: runLine,
  mcpText: (result, input) =>
    input.json === true ? JSON.stringify(result) : [runLine(result).stdout, ...(runLine(result).stderr ?? [])].filter(Boolean).join('\n'),
})

export const perfCampaign = defineVerb({
  name: 'perf_campaign',
  tool: null,
  dispatch: 'local:perf_campaign',
  summary:
    'Run every scenario of a campaign file on a freshly started app (stop, start, perf_run), with hooks and retries; exits 0 only when every scenario passed.',
  example: 'perf/campaign.yaml --platform=sim --label=nightly',
  exampleBefore: ['export PERF_PASSWORD=hunter22'],
  exampleWithoutApp: true,
  positional: ['campaign'],
  kind: 'destructive',
  params: [
    {
      name: 'campaign',
      type: 'string',
      required: true,
      local: true,
      description: 'Campaign YAML path.',
      missing: 'Missing the campaign: tapir:perf_campaign <campaign.yaml> --platform=sim (or --campaign=<file>).',
    },
    {
      name: 'platform',
      type: 'string',
      required: true,
      options: PLATFORMS,
      local: true,
      description: "The platform to start and measure on: sim, or a platform the campaign file's android:, ios: or chrome: key configures.",
      missing: 'Missing --platform: tapir:perf_campaign <campaign.yaml> --platform=sim.',
    },
    {name: 'label', type: 'string', default: 'run', local: true, description: 'Names every run file: lower-case letters, digits, _ and -.'},
    {name: 'out', type: 'string', default: 'build/perf', local: true, description: 'Output directory of the run files and error files.'},
    {name: 'only', type: 'string', local: true, description: 'Run only the scenarios whose name contains this text.'},
    {name: 'timing', type: 'boolean', local: true, description: 'Interleaved timing-mode repeats in every scenario.'},
    {name: 'semantics-pass', type: 'boolean', local: true, description: 'Also measure every scenario with the semantics tree released.'},
  ],
  async execute(context, input) {
    const label = input.label ?? 'run'
    if (!LABEL.test(label)) throw new UsageError(`--label must be lower-case letters, digits, _ and - (got "${label}").`)
    const platform = platformNamed(input.platform)
    if (!platform) throw new UsageError(`--platform must be one of ${PLATFORMS.join(', ')}.`)
    if (!context.sessionFile || !context.reset)
      throw new UsageError('perf_campaign starts and stops the app, so it runs only from the CLI.')
    const outcome = await runCampaign(
      {
        file: resolve(context.cwd, input.campaign),
        platform,
        label,
        outDir: resolve(context.cwd, input.out ?? 'build/perf'),
        only: input.only,
        timing: input.timing === true,
        semanticsPass: input['semantics-pass'] === true,
      },
      {
        sessionFile: context.sessionFile(),
        reset: () => context.reset!(),
        app: async () => perfApp(await context.appWithin(new Deadline(context.timeoutMs)), context.timeoutMs),
        browser: () => browserFor(context.chrome(), context.timeoutMs),
        progress: (line) => context.progress?.(line),
        cwd: context.cwd,
      },
    )
    return {...outcome}
  },
  failed: (result) => !result.results.every((entry) => entry.status === 'ok'),
  report: (result) => ({stdout: campaignLines(result).join('\n')}),
})

export const perfRunVerbs: Verb[] = [perfRunVerb, perfCompare, perfCampaign]
