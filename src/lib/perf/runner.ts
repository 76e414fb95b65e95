import {arch, cpus, platform as osPlatform, release, type} from 'node:os'
import {join} from 'node:path'
import {messageOf, TapirError} from '../errors.js'
import {RUN_OUTPUT, writeOutputFile} from '../output-file.js'
import {boolean, optional, string, type Infer} from '../shape.js'
import {answer, anyAnswer, perfReport} from '../vm/tapir-answers.js'
import type {BrowserControl} from './browser-control.js'
import {DriveError, ScenarioDriver, type Resolve} from './driver.js'
import {readFrameTimes} from './frame-times.js'
import type {PerfApp} from './perf-app.js'
import type {RunFile} from './run-file.js'
import type {Platform, Scenario, Step} from './scenario-types.js'
import {maskDeep, maskSecrets, scenarioJson} from './secrets.js'
import {medianRepeat, summarizeAttribution, summarizeTiming, type Repeat} from './summarize.js'

/** The settle between the last step and perf_end, so the frames it caused are drawn. */
const SETTLE_MS = 300
const SLEEP = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms))

export type Series = 'attribution' | 'timing' | 'semanticsOff'

export interface PerfRunOptions {
  scenario: Scenario
  /** A baseline scenario measured in the same rounds, written to its own file. */
  against?: Scenario
  label: string
  outDir: string
  /** Repeats per series; the scenario's own when absent. */
  repeat?: number
  platform: Platform
  timing: boolean
  semanticsPass: boolean
  device?: string
}

export interface PerfRunDeps {
  app(): Promise<PerfApp>
  browser: BrowserControl
  progress(line: string): void
  /** Stops the run between two repeats (each repeat closes its own perf session), writing nothing. */
  cancelled?: AbortSignal
}

export interface WrittenRun {
  path: string
  run: RunFile
}

interface Unit {
  scenario: Scenario
  series: Series
  /** The run its repeats go to. */
  run: Collecting
}

/** The run of one scenario while its repeats come in. */
interface Collecting {
  scenario: Scenario
  repeats: Repeat[]
  env: Record<string, unknown> | undefined
  restartMode: 'hot_restart' | 'none'
  semanticsReason?: string
}

/** Runs the scenario (and the baseline) round by round, alternating the order of the series
 *  each round, then writes one run file per scenario. */
export async function perfRun(options: PerfRunOptions, deps: PerfRunDeps): Promise<WrittenRun[]> {
  const scenarios = [options.scenario, ...(options.against ? [options.against] : [])]
  const secrets = [...new Set(scenarios.flatMap((s) => s.secrets))]
  const series: Series[] = [
    'attribution',
    ...(options.timing ? (['timing'] as const) : []),
    ...(options.semanticsPass ? (['semanticsOff'] as const) : []),
  ]
  const runs = scenarios.map((scenario): Collecting => ({
    scenario,
    repeats: [],
    env: undefined,
    restartMode: scenario.setup.some((e) => e.verb === 'hot_restart') ? 'hot_restart' : 'none',
  }))
  const units: Unit[] = runs.flatMap((run) => series.map((name) => ({scenario: run.scenario, series: name, run})))
  const rounds = options.repeat ?? options.scenario.repeat
  const driver = new ScenarioDriver(deps.app, deps.browser, options.platform)
  try {
    for (let round = 0; round < rounds; round++) {
      const order = round % 2 === 0 ? units : [...units].reverse()
      for (const unit of order) {
        if (deps.cancelled?.aborted)
          throw new TapirError(`perf_run cancelled after ${round} of ${rounds} round(s); no run file was written.`, 'usage')
        const {run} = unit
        if (unit.series === 'semanticsOff' && run.semanticsReason) continue
        const repeat = await measureOnce(unit, round, options, deps, driver, run, secrets)
        run.repeats.push(repeat)
        const who = options.against ? `${unit.scenario.name} ` : ''
        const outcome = repeat.refused
          ? `refused: ${String(repeat.reason ?? 'the engine drew no frames')}`
          : `${repeat.summary?.frames?.painted ?? 0} painted frames`
        deps.progress(maskSecrets(`repeat ${round + 1}/${rounds} ${who}(${unit.series}) ... ${outcome}`, secrets))
      }
    }
  } finally {
    await deps.browser.release()
  }
  return runs.map((run) =>
    writeRun(
      run,
      options,
      secrets,
      options.against && run.scenario === options.scenario ? options.against.name : options.against ? options.scenario.name : undefined,
    ),
  )
}

async function measureOnce(
  unit: Unit,
  round: number,
  options: PerfRunOptions,
  deps: PerfRunDeps,
  driver: ScenarioDriver,
  run: Collecting,
  secrets: string[],
): Promise<Repeat> {
  const {scenario} = unit
  try {
    await driver.runSetup(scenario.setup)
    await deps.browser.bringToFront()
    if (scenario.viewport && options.platform === 'chrome') await deps.browser.setViewport(scenario.viewport)
    const steps = scenario.steps.filter((step) => !step.only || step.only.includes(options.platform))
    const resolves: Resolve[] = []
    const refs = new Map<number, string | undefined>()
    // Targets preceded only by waits are found before the window opens: their lookup is not the app's work.
    for (const [index, step] of steps.entries()) {
      if (steps.slice(0, index).some((before) => before.verb !== 'wait')) break
      if ('target' in step) refs.set(index, await timed(() => driver.resolveFor(step), resolves, index, step, 'beforeBegin'))
    }
    const app = await deps.app()
    await app.callExtension('perf_begin', {mode: unit.series === 'timing' ? 'timing' : 'attribution', phases: 'false'}, anyAnswer)
    if (unit.series === 'semanticsOff') {
      const reason = await releaseSemantics(app)
      if (reason) {
        run.semanticsReason = reason
        await app.callExtension('perf_end', {full: 'true'}, anyAnswer)
        return {series: unit.series, index: round, refused: true, reason}
      }
    }
    for (const [index, step] of steps.entries()) {
      const ref = refs.has(index) ? refs.get(index) : await timed(() => driver.resolveFor(step), resolves, index, step, 'inWindow')
      try {
        await driver.runStep(step, ref)
      } catch (error) {
        throw new DriveError(`steps[${index}] (${step.verb}) failed: ${messageOf(error)}`)
      }
    }
    await SLEEP(SETTLE_MS)
    const report = await app.callExtension('perf_end', {full: 'true'}, perfReport)
    const frames = report.refused === true ? {} : await readFrameTimes(app, report.sessionToken)
    if (unit.series === 'semanticsOff') await app.callExtension('semantics_hold', {action: 'acquire'}, anyAnswer)
    if (unit.series === 'attribution' && report.refused !== true && run.env === undefined) run.env = report.env
    return {series: unit.series, index: round, ...report, resolves, ...frames}
  } catch (error) {
    if (!(error instanceof DriveError)) throw error
    const diagnostics = await driver.diagnostics().catch(() => 'Diagnostics: unavailable')
    throw new DiagnosedError(maskSecrets(`${scenario.name}: ${error.message.replace(/[\r\n]+/g, ' ')}\n${diagnostics}`, secrets))
  }
}

/** `semantics_hold`: whether semantics stay on, whether the platform holds them, and why. */
const semanticsHoldAnswer = answer({semanticsEnabled: optional(boolean), heldByPlatform: optional(boolean), reason: optional(string)})
type SemanticsHold = Infer<typeof semanticsHoldAnswer>

/** The most of the app's own reason a run file keeps. */
const MAX_REASON_CHARS = 300

/** Releases the semantics tree for a semanticsOff repeat; the reason when it cannot be. */
async function releaseSemantics(app: PerfApp): Promise<string | undefined> {
  let answer: SemanticsHold
  try {
    answer = await app.callExtension('semantics_hold', {action: 'release'}, semanticsHoldAnswer)
  } catch (error) {
    return `The app cannot release its semantics tree: ${messageOf(error)}`
  }
  if (answer.semanticsEnabled !== true) return undefined
  // The app names what holds them when it knows; the reason is its text, kept to one bounded line.
  if (typeof answer.reason === 'string' && answer.reason.trim() !== '')
    return `Semantics stay on after the release: ${answer.reason
      .replace(/[\r\n]+/g, ' ')
      .trim()
      .slice(0, MAX_REASON_CHARS)}.`
  return `Semantics stay on after the release${answer.heldByPlatform ? ': the platform holds them (an assistive technology, or a web engine that has sent a tree)' : ''}.`
}

async function timed<T>(work: () => Promise<T>, resolves: Resolve[], index: number, step: Step, phase: Resolve['phase']): Promise<T> {
  const started = performance.now()
  let value: T
  try {
    value = await work()
  } catch (error) {
    throw new DriveError(`steps[${index}] (${step.verb}) failed: ${messageOf(error)}`)
  }
  resolves.push({step: index, verb: step.verb, phase, resolveMs: Math.round((performance.now() - started) * 10) / 10})
  return value
}

function hostInfo(): Record<string, unknown> {
  return {os: osPlatform(), uname: `${type()} ${release()} ${arch()}`, cpu: cpus()[0]?.model ?? 'unknown', cores: cpus().length}
}

function writeRun(run: Collecting, options: PerfRunOptions, secrets: string[], interleavedWith: string | undefined): WrittenRun {
  const attribution = run.repeats.filter((r) => r.series === 'attribution')
  const timing = run.repeats.filter((r) => r.series === 'timing')
  const semanticsOff = run.repeats.filter((r) => r.series === 'semanticsOff')
  const summary = summarizeAttribution(attribution)
  if (options.timing) summary.timing = summarizeTiming(timing)
  const appEnv = run.env ?? {}
  const file: RunFile = {
    scenario: scenarioJson(run.scenario),
    label: options.label,
    ...(run.scenario.variant ? {variant: run.scenario.variant} : {}),
    env: {
      ...appEnv,
      ...(options.device ? {device: options.device} : {}),
      target: options.platform,
      emulator: options.device !== undefined && /^emulator-/.test(options.device),
      restartMode: run.restartMode,
      host: hostInfo(),
      renderer: appEnv.renderer ?? 'unknown',
    },
    summary,
    insights: medianRepeat(attribution)?.insights ?? [],
    repeats: run.repeats,
    ...(interleavedWith ? {interleavedWith} : {}),
    ...(options.semanticsPass
      ? run.semanticsReason
        ? {semanticsPass: 'unsupported', semanticsPassReason: run.semanticsReason}
        : {semanticsPass: 'measured', semanticsOff: {summary: summarizeAttribution(semanticsOff), repeats: semanticsOff}}
      : {}),
  }
  const path = join(options.outDir, `${run.scenario.name}-${options.label}.json`)
  const masked = maskDeep(file, secrets)
  writeOutputFile(path, `${JSON.stringify(masked, null, 2)}\n`, RUN_OUTPUT)
  return {path, run: masked}
}

/** A step or setup failure, then the Diagnostics line (both one line each, app text included). */
class DiagnosedError extends TapirError {
  constructor(message: string) {
    super(message, 'local')
  }

  override get multiline(): boolean {
    return true
  }
}
