import {createHash} from 'node:crypto'
import {rmdirSync, rmSync} from 'node:fs'
import {homedir, tmpdir} from 'node:os'
import {dirname, join, relative, sep} from 'node:path'
import type {Box, Finding} from '../a11y/types.js'
import {messageOf} from '../errors.js'
import type {Outcome} from '../output/outcome.js'
import {runSteps, type StepResult} from '../run/execute.js'
import {maskWholeValues} from '../run/mask.js'
import {planSteps, stepLines, type Step} from '../run/plan.js'
import {readStepSource} from '../run/read-steps.js'
import {Tracer} from '../trace/tracer.js'
import {verbNamed} from '../verbs/index.js'
import type {VerbContext} from '../verbs/types.js'
import {captureEvidence} from './evidence.js'
import type {Attempt, Failure, StepRecord, SuiteReport, TestRecord} from './report.js'

/** Longest step output a report keeps. */
const MAX_OUTPUT = 4000

/** What a suite run needs from the front end that starts it. */
export interface SuiteHooks {
  context: VerbContext
  isVerb(name: string): boolean
  /** The words of a step the one reader takes as a flag's value (the planner's valueWords). */
  valueWords(verb: string, argv: readonly string[]): ReadonlySet<number>
  /** Runs one step as its command would (tapir:run's dispatch), under the attempt's `control`. */
  dispatch(step: Step, control: AttemptControl): Promise<Outcome>
  /** Brings the app to a known state before an attempt (a hot restart, a new app, or nothing). */
  fresh(): Promise<void>
  /** Told of each test once it has its result. */
  onTest?(test: TestRecord): void
}

/** What an attempt tells the steps it runs. */
export interface AttemptControl {
  /** Aborts when the test timed out: the step stops at its next safe point (a perf_run's round). */
  cancelled: AbortSignal
  /** Told a text a step typed into a field that takes a secret: masked in every report. */
  secret(text: string): void
}

export interface SuiteOptions {
  /** The test files, relative to cwd. */
  files: readonly string[]
  cwd: string
  /** Absolute path of the report folder (for the screenshots). */
  outputDir: string
  retries: number
  testTimeoutMs: number
  bail: boolean
  fresh: string
  /** Folders of this machine no report may name, beside cwd, home and the temp folder (the
   *  session file's, when it was named). */
  hide?: readonly string[]
  /** Which attempts leave a trace (docs/traces.md), written into `traces/` of the report folder. */
  trace?: SuiteTrace
}

export const TRACE_MODES = ['on', 'off', 'retain-on-failure', 'on-first-retry'] as const
export type TraceMode = (typeof TRACE_MODES)[number]

export interface SuiteTrace {
  mode: TraceMode
  /** tapir's version, for the trace's header. */
  version: string
  screenshots: boolean
}

/** The folder of a report's traces, inside its output folder. */
export const TRACES_FOLDER = 'traces'

/** Whether an attempt (0 the first) is traced: every one, none, every one kept only when it
 *  failed, or only the first retry. */
function traces(trace: SuiteTrace | undefined, attempt: number): boolean {
  if (!trace || trace.mode === 'off') return false
  return trace.mode === 'on-first-retry' ? attempt === 1 : true
}

/** Runs every test file as one test, each attempt from a fresh app, in strict mode, retried up to
 *  `retries` times; a test that passes on a retry is flaky. Never throws for a test's failure. */
export async function runSuite(options: SuiteOptions, hooks: SuiteHooks): Promise<SuiteReport> {
  const started = new Date()
  const tests: TestRecord[] = []
  // A secret stays one for the rest of the run: the app may still show it in a later test (under
  // --fresh=none, or a field a restart keeps).
  const secrets: string[] = []
  for (const file of options.files) {
    const attempts: Attempt[] = []
    let passed = false
    for (let attempt = 0; attempt <= options.retries && !passed; attempt++) {
      const result = await runAttempt(file, attempt, options, hooks, secrets)
      attempts.push(result)
      passed = result.passed
    }
    const test: TestRecord = {
      file,
      status: passed ? (attempts.length > 1 ? 'flaky' : 'passed') : 'failed',
      durationMs: attempts.reduce((sum, attempt) => sum + attempt.durationMs, 0),
      attempts,
    }
    tests.push(test)
    hooks.onTest?.(test)
    if (!passed && options.bail) break
  }
  return {
    tool: 'tapir test',
    version: 1,
    startedAt: started.toISOString(),
    durationMs: Date.now() - started.getTime(),
    fresh: options.fresh,
    tests,
  }
}

async function runAttempt(file: string, attempt: number, options: SuiteOptions, hooks: SuiteHooks, secrets: string[]): Promise<Attempt> {
  const startedAt = new Date()
  const steps: StepRecord[] = []
  // `secrets`: values read from the environment, and text typed into secret fields, as the steps
  // of this run met them.
  const mask = (text: string) => unrooted(maskWholeValues(text, secrets), options)
  let tracer: Tracer | undefined
  const finish = async (failure?: Failure, withEvidence = true): Promise<Attempt> => {
    const evidence =
      failure && withEvidence
        ? await captureEvidence(hooks.context, options.outputDir, evidenceName(file, attempt), startedAt, mask)
        : undefined
    const trace = tracer
      ? await keptTrace(tracer, failure === undefined && options.trace?.mode === 'retain-on-failure', options.outputDir)
      : undefined
    return {
      passed: failure === undefined,
      durationMs: Date.now() - startedAt.getTime(),
      startedAt: startedAt.toISOString(),
      // a secret met in a later step is masked in the earlier ones too
      steps: steps.map((step) => ({...step, step: mask(step.step), output: mask(step.output)})),
      ...(failure ? {failure} : {}),
      ...(evidence ? {evidence} : {}),
      ...(trace ? {trace} : {}),
    }
  }
  let plan
  try {
    const text = await readStepSource(file, emptyStdin())
    const lines = stepLines(text)
    if (lines.length === 0) return await finish({file, message: `${file}: no steps (only blank lines and # comments).`}, false)
    plan = planSteps(lines, {isVerb: hooks.isVerb, valueWords: hooks.valueWords, env: process.env})
    secrets.push(...plan.secrets)
  } catch (error) {
    return finish({file, message: unrooted(`${file}: ${messageOf(error)}`, options)}, false)
  }
  try {
    await hooks.fresh()
  } catch (error) {
    return finish({
      file,
      message: unrooted(`${file}: the app could not be brought to a known state (--fresh=${options.fresh}): ${messageOf(error)}`, options),
    })
  }
  if (options.trace && traces(options.trace, attempt))
    tracer = new Tracer({
      file: join(options.outputDir, TRACES_FOLDER, `${evidenceName(file, attempt)}.trace`),
      source: 'test',
      title: `${file}, attempt ${attempt + 1}`,
      version: options.trace.version,
      screenshots: options.trace.screenshots,
      clean: mask,
    })
  let timedOut = false
  const record = (result: StepResult): void => {
    steps.push({
      step: mask(result.step),
      ...(result.line === undefined ? {} : {line: result.line}),
      ok: result.ok,
      exitCode: result.exitCode,
      durationMs: result.durationMs ?? 0,
      output: cut(mask(result.output)),
      ...accessibilityOf(result.outcome.result),
    })
  }
  const stop = new AbortController()
  const control: AttemptControl = {cancelled: stop.signal, secret: (text) => secrets.push(text)}
  const dispatch = (step: Step): Promise<Outcome> =>
    timedOut ? Promise.resolve({stdout: '', stderr: ['✗ not run: the test timed out'], exitCode: 1}) : hooks.dispatch(step, control)
  const onStep = async (result: StepResult, index: number): Promise<void> => {
    if (timedOut) return
    record(result)
    if (tracer) tracer = await traceStep(tracer, hooks.context, result, verbNamed(plan.steps[index]?.verb ?? '')?.kind !== 'read')
  }
  const run = runSteps(plan.steps, dispatch, false, {strict: true, onStep})
  let timer: NodeJS.Timeout | undefined
  const timeout = new Promise<'timeout'>((done) => {
    timer = setTimeout(() => done('timeout'), options.testTimeoutMs)
  })
  const report = await Promise.race([run, timeout])
  clearTimeout(timer)
  if (report === 'timeout') {
    timedOut = true
    // The step is stopped, and awaited, before anything else acts on the app: a cancellable step
    // stops at its next safe point, and every call still waiting on the app fails as the
    // connection closes (the next use opens a new one).
    stop.abort()
    hooks.context.reset?.()
    await run
    const at = plan.steps[steps.length]
    return finish({
      file,
      ...(at?.line === undefined ? {} : {line: at.line}),
      ...(at ? {step: mask(at.text), stepNumber: steps.length + 1} : {}),
      message: mask(
        `${file}${at?.line === undefined ? '' : `:${at.line}`}: the test timed out after ${options.testTimeoutMs} ms${at ? ` in step ${steps.length + 1} (${at.text})` : ''}.`,
      ),
    })
  }
  if (report.failed === null) return finish()
  const failed = report.steps[report.failed - 1]
  const why = failed.outcome.stderr.map((line) => line.replace(/^✗ /, '')).filter((line) => line !== '')
  const reason = mask(why.at(-1) ?? failed.output.split('\n', 1)[0] ?? '')
  return finish({
    file,
    ...(failed.line === undefined ? {} : {line: failed.line}),
    step: mask(failed.step),
    stepNumber: report.failed,
    message: `${file}${failed.line === undefined ? '' : `:${failed.line}`}: step ${report.failed} (${mask(failed.step)}) failed (exit ${failed.exitCode}): ${cut(reason)}`,
  })
}

/** Appends the step to the attempt's trace; a trace that cannot be written is given up (the
 *  test goes on, its report without a trace). */
async function traceStep(tracer: Tracer, context: VerbContext, result: StepResult, acted: boolean): Promise<Tracer | undefined> {
  const durationMs = result.durationMs ?? 0
  try {
    await tracer.step(context, {
      via: 'run',
      call: result.step,
      startedAt: new Date(Date.now() - durationMs),
      durationMs,
      exitCode: result.exitCode,
      output: result.output,
      result: result.outcome.result,
      acted,
    })
    return tracer
  } catch {
    return undefined
  }
}

/** The trace's path from the report's folder, once closed; a passing attempt's is removed when
 *  only failures keep theirs. */
async function keptTrace(tracer: Tracer, drop: boolean, outputDir: string): Promise<string | undefined> {
  try {
    // the last step's line may still wait for its screenshot
    await tracer.flush()
    if (!tracer.written) return undefined
    if (drop) {
      rmSync(tracer.file, {force: true})
      try {
        rmdirSync(dirname(tracer.file)) // only when no other trace is in it
      } catch {
        // other traces are kept there
      }
      return undefined
    }
    await tracer.close()
  } catch {
    return undefined
  }
  return relative(outputDir, tracer.file).split(sep).join('/')
}

/** A file-system-safe name for an attempt's screenshot, one per test file: the readable part
 *  (`a/b` and `a_b` read alike, and long names are cut) is followed by a hash of the whole path. */
export function evidenceName(file: string, attempt: number): string {
  const base = file
    .replace(/\.tapir$/, '')
    .replace(/[^A-Za-z0-9._-]+/g, '_')
    .slice(-100)
  return `${base}-${createHash('sha256').update(file).digest('hex').slice(0, 12)}-attempt${attempt + 1}`
}

const cut = (text: string): string => (text.length > MAX_OUTPUT ? `${text.slice(0, MAX_OUTPUT - 1)}…` : text)

async function* emptyStdin(): AsyncIterable<Buffer> {}

/** Text with the machine's own folders taken out: a report names no absolute path of the machine
 *  that made it. The project's folder becomes relative, the home folder ~, the temp folder
 *  <tmp>, and each folder of `hide` <path>; the longest first, so none is cut in two. */
export function unrooted(text: string, options: Pick<SuiteOptions, 'cwd' | 'hide'>): string {
  const {cwd} = options
  let out = text.replaceAll(`${cwd}${sep}`, '').replaceAll(cwd, '.')
  const named: Array<[string, string]> = [
    [homedir(), '~'],
    [tmpdir(), '<tmp>'],
    ...(options.hide ?? []).map((folder): [string, string] => [folder, '<path>']),
  ]
  for (const [folder, as] of named.filter(([folder]) => folder.length > 1).sort(([a], [b]) => b.length - a.length))
    out = out.replace(new RegExp(`${escapeRegExp(folder)}(?![\\w.-])`, 'g'), as)
  return out
}

const escapeRegExp = (text: string): string => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')

/** The findings an a11y or expect --a11y step returned, for the reports (the HTML draws their rects). */
function accessibilityOf(result: Record<string, unknown> | undefined): Pick<StepRecord, 'findings' | 'view'> {
  const findings = result?.findings
  if (!Array.isArray(findings) || findings.length === 0) return {}
  const view = result?.view
  return {findings: findings as Finding[], ...(view !== null && typeof view === 'object' ? {view: view as Box} : {})}
}
