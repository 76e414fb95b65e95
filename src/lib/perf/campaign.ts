import {lstatSync} from 'node:fs'
import {dirname, join, resolve} from 'node:path'
import {messageOf, UsageError, TapirError} from '../errors.js'
import {CAMPAIGN_ERROR_OUTPUT, checkOutputFile, REPORT_OUTPUT, writeOutputFile} from '../output-file.js'
import {bootAnswer} from '../vm/tapir-answers.js'
import {startApp, stopApp} from './app-process.js'
import type {BrowserControl} from './browser-control.js'
import {loadCampaign} from './campaign-file.js'
import {launchFor, type Launch} from './campaign-launch.js'
import {ScenarioDriver} from './driver.js'
import {runHook} from './hooks.js'
import type {PerfApp} from './perf-app.js'
import type {CampaignResult} from './report/campaign-index.js'
import type {RunFile} from './run-file.js'
import {perfRun} from './runner.js'
import {loadScenarios} from './scenario-file.js'
import type {Platform, Scenario} from './scenario-types.js'
import {maskSecrets} from './secrets.js'

/** A started app answers boot_id within this long, polled this often. */
const BOOT_TIMEOUT_MS = 180_000
const BOOT_POLL_MS = 500

export interface CampaignOptions {
  file: string
  platform: Platform
  label: string
  outDir: string
  only?: string
  timing: boolean
  semanticsPass: boolean
}

export interface CampaignDeps {
  /** The session file the campaign's app is recorded in. */
  sessionFile: string
  /** Forgets the connection, so the next app() reads the session the new start wrote. */
  reset(): void
  app(): Promise<PerfApp>
  browser(): BrowserControl
  progress(line: string): void
  cwd: string
}

export type {CampaignResult}

export interface CampaignOutcome {
  results: CampaignResult[]
  /** The index.html linking every scenario's report. */
  index: string
}

/** Every scenario the globs match, one per declared variant, on this platform and --only. */
function selectScenarios(files: string[], options: CampaignOptions): Scenario[] {
  const scenarios = files.flatMap((file) => loadScenarios(file, process.env))
  const onPlatform = scenarios.filter((scenario) => scenario.platforms.includes(options.platform))
  const {only} = options
  const chosen = only === undefined ? onPlatform : onPlatform.filter((scenario) => scenario.name.includes(only))
  if (chosen.length === 0)
    throw new UsageError(
      options.only === undefined
        ? `No scenario lists ${options.platform}.`
        : `No scenario matched --only=${options.only} on ${options.platform}.`,
    )
  return chosen
}

async function waitForBoot(deps: CampaignDeps): Promise<void> {
  const deadline = Date.now() + BOOT_TIMEOUT_MS
  for (;;) {
    try {
      await (await deps.app()).callExtension('boot_id', {}, bootAnswer)
      return
    } catch (error) {
      if (Date.now() > deadline)
        throw new TapirError(`The started app did not answer boot_id within ${BOOT_TIMEOUT_MS / 1000} s: ${messageOf(error)}`, 'local')
    }
    await new Promise((resolve) => setTimeout(resolve, BOOT_POLL_MS))
  }
}

/** A campaign starts and stops its own app for every scenario, so it would end the app of a
 *  session already recorded there without a word: refuse up front instead. */
function refuseRecordedSession(sessionFile: string): void {
  if (!lstatSync(sessionFile, {throwIfNoEntry: false})) return
  throw new TapirError(
    `A session is recorded at ${sessionFile}, and perf_campaign would stop its app: the campaign starts and stops an app of its own for every scenario. Run \`tapir stop\` first, or give the campaign a session file of its own with --state=<file>.`,
    'local',
  )
}

/** Runs each selected scenario on a freshly started app, retrying a failure, and stops the app at the end. */
export async function runCampaign(options: CampaignOptions, deps: CampaignDeps): Promise<CampaignOutcome> {
  const campaign = loadCampaign(options.file, process.env)
  const launch: Launch | undefined = options.platform === 'sim' ? undefined : launchFor(options.platform, campaign.launches, options.file)
  const scenarios = selectScenarios(campaign.files, options)
  refuseRecordedSession(deps.sessionFile)
  const index = join(options.outDir, 'index.html')
  const reportOf = (scenario: Scenario) => join(options.outDir, `${scenario.name}-${options.label}.html`)
  // Pages written at the end are checked now, so a long campaign is not lost to a file in the way.
  for (const page of [index, ...scenarios.map(reportOf)]) checkOutputFile(page, REPORT_OUTPUT)
  const {writeCampaignIndex, writeRunReport} = await import('./report/write.js')
  const runs = new Map<string, RunFile>()
  const variables = {TAPIR_PERF_PLATFORM: options.platform, TAPIR_PERF_LABEL: options.label, TAPIR_PERF_OUT: options.outDir}
  const hookDir = dirname(resolve(options.file))
  if (campaign.hooks.beforeCampaign) await runHook('before_campaign', campaign.hooks.beforeCampaign, variables, hookDir)
  const results: CampaignResult[] = []
  try {
    for (const scenario of scenarios) {
      const secrets = [...scenario.secrets, ...campaign.secrets]
      const errFile = join(options.outDir, `${scenario.name}-${options.label}.err`)
      const attempts = campaign.retries + 1
      let result: CampaignResult | undefined
      for (let attempt = 1; attempt <= attempts && !result; attempt++) {
        deps.progress(`${scenario.name}: attempt ${attempt}/${attempts}`)
        try {
          if (campaign.hooks.beforeScenario)
            await runHook('before_scenario', campaign.hooks.beforeScenario, {...variables, TAPIR_PERF_SCENARIO: scenario.name}, hookDir)
          deps.reset()
          await stopApp(deps.sessionFile, deps.cwd)
          deps.progress(`${scenario.name}: starting the app on ${launch?.device ?? 'sim'}`)
          await startApp(launch, deps.sessionFile, deps.cwd)
          await waitForBoot(deps)
          await new ScenarioDriver(deps.app, deps.browser(), options.platform).runSetup(campaign.afterStart, 'after_start')
          const [written] = await perfRun(
            {
              scenario,
              label: options.label,
              outDir: options.outDir,
              platform: options.platform,
              timing: options.timing,
              semanticsPass: options.semanticsPass,
              device: launch?.device ?? options.platform,
            },
            {app: deps.app, browser: deps.browser(), progress: deps.progress},
          )
          if (!written) throw new TapirError('perf_run wrote no run file', 'local')
          if (written.run.summary.repeats === 0)
            throw new TapirError(`every repeat was refused (${written.run.summary.refused}); see ${written.path}`, 'local')
          writeRunReport(reportOf(scenario), written.run, written.path)
          runs.set(scenario.name, written.run)
          result = {
            scenario: scenario.name,
            status: 'ok',
            attempts: attempt,
            runFile: written.path,
            errFile: attempt > 1 ? errFile : null,
            report: reportOf(scenario),
          }
        } catch (error) {
          writeOutputFile(
            errFile,
            `${maskSecrets(`attempt ${attempt}/${attempts}: ${messageOf(error)}`, secrets)}\n`,
            CAMPAIGN_ERROR_OUTPUT,
          )
        }
      }
      results.push(result ?? {scenario: scenario.name, status: 'failed', attempts, runFile: null, errFile, report: null})
    }
  } finally {
    deps.reset()
    await stopApp(deps.sessionFile, deps.cwd).catch(() => {})
  }
  writeCampaignIndex(index, {
    campaign: resolve(options.file),
    platform: options.platform,
    label: options.label,
    device: launch?.device,
    entries: results.map((result) => ({...result, run: runs.get(result.scenario)})),
  })
  return {results, index}
}
