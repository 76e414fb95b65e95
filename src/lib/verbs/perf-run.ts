import {resolve} from 'node:path'
import {ParamError, TapirError, UsageError} from '../errors.js'
import {checkOutputFile, REPORT_OUTPUT} from '../output-file.js'
import {browserFor} from '../perf/browser-control.js'
import {runCampaign} from '../perf/campaign.js'
import {perfApp} from '../perf/perf-app.js'
import {platformOfDevice} from '../perf/platforms.js'
import {perfRun, type WrittenRun} from '../perf/runner.js'
import {loadScenario} from '../perf/scenario-file.js'
import {PLATFORMS, type Platform} from '../perf/scenario-types.js'
import {Deadline} from '../vm/deadline.js'
import {drivesZeroInstall} from '../zero/drive.js'
import {htmlPath, type PERF_CAMPAIGN_PARAMS, type PERF_RUN_PARAMS} from './perf-run-params.js'
import type {InputOf, VerbCall} from './types.js'

// What perf_run and perf_campaign do. Loaded only when one of them runs: a scenario run needs
// the YAML reader, the driver and the runner, which no other verb does.

const platformNamed = (name: string | undefined): Platform | undefined => PLATFORMS.find((platform) => platform === name)

const LABEL = /^[a-z0-9_-]+$/
/** Insights the --json answer keeps (the run file has them all). */
const JSON_INSIGHTS = 6

/** A scenario's repeats find their targets and read their reports through the package: an app
 *  with none is refused before the first repeat, not at its first step. */
async function refuseZeroInstall(context: VerbCall): Promise<void> {
  const deadline = new Deadline(context.timeoutMs)
  const app = await context.appWithin(deadline)
  if ((await app.appPackage(deadline)) !== undefined || !(await drivesZeroInstall(app, deadline))) return
  throw new TapirError(
    (words) =>
      `${words.call('perf_run')} has no zero-install form: its repeats find their targets and read their reports through the package; measure your steps between ${words.call('perf_begin')} and ${words.call('perf_end')} for a timing report from Flutter's frame events, or run tapir install.`,
    'usage',
  )
}

/** Runs a scenario file: its setup, steps and perf_end per repeat, and writes the run file(s).
 *  The result is the run file without its repeats (and only the top insights), and where it is. */
export async function runScenario(context: VerbCall, input: InputOf<typeof PERF_RUN_PARAMS>) {
  const label = input.label ?? 'run'
  if (!LABEL.test(label)) throw new ParamError((name) => `${name('label')} must be lower-case letters, digits, _ and - (got "${label}").`)
  const load = (path: string) => loadScenario(resolve(context.cwd, path), {variant: input.variant, env: process.env})
  const scenario = load(input.scenario)
  const against = input.against === undefined ? undefined : load(input.against)
  if (against && against.name === scenario.name)
    throw new UsageError(
      `The baseline (against) is a scenario named "${scenario.name}" too, so both would be written to ${scenario.name}-${label}.json. Give the baseline scenario another name.`,
    )
  const html = htmlPath(context.cwd, input.html)
  if (html !== undefined) checkOutputFile(html, REPORT_OUTPUT)
  // The files are read before the session: a mistake in one is told first, app or no app.
  const target = context.target?.() ?? {}
  const platform = platformNamed(input.platform) ?? platformOfDevice(target.device)
  for (const each of [scenario, ...(against ? [against] : [])]) {
    if (!each.platforms.includes(platform))
      throw new UsageError(`Scenario ${each.name} does not run on ${platform} (platforms: ${each.platforms.join(', ')}).`)
  }
  await refuseZeroInstall(context)
  const [main, baseline]: Array<WrittenRun | undefined> = await perfRun(
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
      ...(context.cancelled ? {cancelled: context.cancelled} : {}),
    },
  )
  // perfRun writes one run per scenario, the main one first.
  if (main === undefined) throw new Error('perf_run wrote no run')
  if (html !== undefined) {
    const {writeRunReport} = await import('../perf/report/write.js')
    writeRunReport(html, main.run, main.path)
  }
  const {repeats: _repeats, insights, ...shown} = main.run
  return {
    ...shown,
    insights: insights.slice(0, JSON_INSIGHTS),
    path: main.path,
    ...(baseline ? {againstPath: baseline.path} : {}),
    ...(html === undefined ? {} : {html}),
  }
}

/** Runs every scenario of a campaign file on a freshly started app, each with its hooks and retries. */
export async function runCampaignFile(context: VerbCall, input: InputOf<typeof PERF_CAMPAIGN_PARAMS>) {
  const label = input.label ?? 'run'
  if (!LABEL.test(label)) throw new ParamError((name) => `${name('label')} must be lower-case letters, digits, _ and - (got "${label}").`)
  const platform = platformNamed(input.platform)
  if (!platform) throw new ParamError((name) => `${name('platform')} must be one of ${PLATFORMS.join(', ')}.`)
  const {sessionFile, reset} = context
  if (!sessionFile || !reset) throw new UsageError('perf_campaign starts and stops the app, so it runs only from the CLI.')
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
      sessionFile: sessionFile.call(context),
      reset: () => reset.call(context),
      app: async () => perfApp(await context.appWithin(new Deadline(context.timeoutMs)), context.timeoutMs),
      browser: () => browserFor(context.chrome(), context.timeoutMs),
      progress: (line) => context.progress?.(line),
      cwd: context.cwd,
    },
  )
  return {...outcome}
}
