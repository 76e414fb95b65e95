import {EXIT} from '../output/exit-codes.js'
import type {ExitCode} from '../output/exit-codes.js'
import type {ErrorObject, Outcome} from '../output/outcome.js'
import type {RunReport, StepResult} from './execute.js'
import {maskWholeValues, maskWholeValuesDeep} from './mask.js'

const LINE_LIMIT = 120

/** What a progress line shows of a step's output: a JSON result (find, observe) on one line,
 *  anything else by its first line; either cut at LINE_LIMIT. */
function progressLine(text: string): string {
  const line = compactJson(text) ?? text.split('\n', 1)[0] ?? ''
  return line.length > LINE_LIMIT ? `${line.slice(0, LINE_LIMIT - 1)}…` : line
}

function compactJson(text: string): string | undefined {
  if (!/^\s*[[{]/.test(text)) return undefined
  try {
    return JSON.stringify(JSON.parse(text))
  } catch {
    return undefined // a line that only starts like JSON
  }
}

/** `[i/n] <step> ok: <its output in one line>` per step, but the last step's whole output after its line; on failure
 *  `step N failed (exit C): <step>` with that step's errors on stderr, and its exit code. */
export function runOutcome(report: RunReport, total: number, json: boolean): Outcome {
  const failedAt = report.failed
  const failure = failedAt === null ? undefined : report.steps[failedAt - 1]
  const exitCode: ExitCode = failure?.exitCode ?? EXIT.ok
  const error = failure && failedAt !== null ? failedStepError(failedAt, failure) : undefined
  if (json) {
    const steps = report.steps.map(({step, ok, exitCode: code, output}) => ({step, ok, exitCode: code, output}))
    return {stdout: JSON.stringify({steps, failed: report.failed}), stderr: [], exitCode, ...(error ? {error} : {})}
  }
  const last = report.steps.at(-1)
  if (!last) return {stdout: '', stderr: [], exitCode, ...(error ? {error} : {})}
  const progress = report.steps.map((result, index) => {
    const status = result.ok ? 'ok' : `failed (exit ${result.exitCode})`
    // The last step's whole output follows its line: shown once, there.
    if (result === last && last.outcome.stdout) return `[${index + 1}/${total}] ${result.step} ${status}:`
    return `[${index + 1}/${total}] ${result.step} ${status}: ${progressLine(result.output)}`
  })
  const stdout = [...progress, ...(last.outcome.stdout ? [last.outcome.stdout] : [])].join('\n')
  const stderr =
    failure && failedAt !== null
      ? [`✗ ${failedLine(failedAt, failure)}`, ...failure.outcome.stderr, ...(last === failure ? [] : last.outcome.stderr)]
      : last.outcome.stderr
  return {stdout, stderr, exitCode, ...(error ? {error} : {})}
}

/** `step N (line L) failed (exit C): <step>`: where a run stopped, by its file's line when it has one. */
function failedLine(number: number, failure: StepResult): string {
  const line = failure.line === undefined ? '' : ` (line ${failure.line})`
  return `step ${number}${line} failed (exit ${failure.exitCode}): ${failure.step}`
}

/** The run's error object: which step failed, with that step's code and the app's envelope. */
function failedStepError(number: number, failure: StepResult): ErrorObject {
  const {code, envelope} = failure.outcome.error?.error ?? {}
  const message = failedLine(number, failure)
  return {
    error: {
      message,
      exitCode: failure.exitCode,
      step: number,
      ...(failure.line === undefined ? {} : {line: failure.line}),
      ...(code === undefined ? {} : {code}),
      ...(envelope === undefined ? {} : {envelope}),
    },
  }
}

/** The outcome with every value a step read from the environment masked (an app's answer may echo it). */
export function withoutSecrets(outcome: Outcome, secrets: readonly string[]): Outcome {
  if (secrets.length === 0) return outcome
  return {
    stdout: maskWholeValues(outcome.stdout, secrets),
    stderr: outcome.stderr.map((line) => maskWholeValues(line, secrets)),
    exitCode: outcome.exitCode,
    ...(outcome.error ? {error: maskWholeValuesDeep(outcome.error, secrets)} : {}),
  }
}

/** The report with what each step printed masked, and each step line left as written (it holds
 *  `${env.NAME}`, never the value). */
export function reportWithoutSecrets(report: RunReport, secrets: readonly string[]): RunReport {
  if (secrets.length === 0) return report
  return {
    ...report,
    steps: report.steps.map((result) => ({
      ...result,
      output: maskWholeValues(result.output, secrets),
      outcome: withoutSecrets(result.outcome, secrets),
    })),
  }
}
