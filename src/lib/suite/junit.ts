import {posix} from 'node:path'
import {shownAttempt, totalsOf, type Attempt, type Failure, type SuiteReport, type TestRecord} from './report.js'

/** The first bytes of every JUnit file tapir test writes: how it knows its own. */
export const JUNIT_HEAD = '<?xml version="1.0" encoding="UTF-8"?>\n<testsuites name="tapir test"'

/** Longest text one element carries; a report stays readable and small. */
const MAX_TEXT = 64 * 1024

/**
 * The report as JUnit XML, in the form CI readers take (docs/tapir-test.md names the readers and
 * what each reads): one `<testsuite>` per folder of tests, one `<testcase>` per test file with
 * `file`, `line`, `classname`, `name` and `time` in seconds; a failed test has a `<failure>` whose
 * `message` names the file, line and step, and retries are written as Surefire writes them
 * (`retriesXml`); `<system-out>` holds the steps as they ran.
 */
export function junitXml(report: SuiteReport, reportFolder = '.'): string {
  const totals = totalsOf(report)
  const suites = new Map<string, TestRecord[]>()
  for (const test of report.tests) {
    const folder = test.file.includes('/') ? test.file.slice(0, test.file.lastIndexOf('/')) : '.'
    suites.set(folder, [...(suites.get(folder) ?? []), test])
  }
  const body = [...suites].map(([folder, tests]) => suiteXml(folder, tests, report.startedAt, reportFolder)).join('')
  return (
    JUNIT_HEAD +
    ` tests="${totals.total}" failures="${totals.failed}" errors="0" skipped="0" time="${seconds(report.durationMs)}">\n` +
    body +
    '</testsuites>\n'
  )
}

function suiteXml(folder: string, tests: TestRecord[], timestamp: string, reportFolder: string): string {
  const failures = tests.filter((test) => test.status === 'failed').length
  const time = tests.reduce((sum, test) => sum + test.durationMs, 0)
  return (
    `  <testsuite name="${attr(folder)}" tests="${tests.length}" failures="${failures}" errors="0" skipped="0" time="${seconds(time)}" timestamp="${attr(timestamp.replace(/\.\d+Z$/, ''))}">\n` +
    tests.map((test) => caseXml(test, reportFolder)).join('') +
    '  </testsuite>\n'
  )
}

function caseXml(test: TestRecord, reportFolder: string): string {
  const shown = shownAttempt(test)
  const name = test.file.replace(/\.tapir$/, '')
  const line = shown.failure?.line ?? shown.steps[0]?.line ?? 1
  const open = `    <testcase name="${attr(name)}" classname="${attr(name.replaceAll('/', '.'))}" file="${attr(test.file)}" line="${line}" time="${seconds(test.durationMs)}">\n`
  return `${open}${retriesXml(test)}      <system-out>${text(systemOut(test, reportFolder))}</system-out>\n    </testcase>\n`
}

/**
 * The failed attempts as Maven Surefire writes a rerun test (StatelessXmlReporter,
 * serializeTestClassWithRerun): a flaky test has one `<flakyFailure>` per failed attempt and no
 * `<failure>`; a failed one has its first attempt as `<failure>` and each later one as
 * `<rerunFailure>`. A rerun element holds its `<stackTrace>` and `<system-out>` inside.
 */
function retriesXml(test: TestRecord): string {
  const failed = test.attempts.filter((attempt) => !attempt.passed && attempt.failure !== undefined)
  if (test.status === 'flaky') return failed.map((attempt) => rerunXml('flakyFailure', attempt)).join('')
  if (test.status !== 'failed') return ''
  const [first, ...reruns] = test.attempts.length > 1 ? failed : [shownAttempt(test)]
  if (first?.failure === undefined) return ''
  const failure = `      <failure message="${attr(first.failure.message)}" type="${failureType(first.failure)}">${text(failureDetail(first.failure, first))}</failure>\n`
  return failure + reruns.map((attempt) => rerunXml('rerunFailure', attempt)).join('')
}

function rerunXml(element: 'flakyFailure' | 'rerunFailure', attempt: Attempt): string {
  const failure = attempt.failure
  if (failure === undefined) return ''
  return (
    `      <${element} message="${attr(failure.message)}" type="${failureType(failure)}">` +
    `<stackTrace>${text(failureDetail(failure, attempt))}</stackTrace>` +
    `<system-out>${text(stepLines(attempt).join('\n'))}</system-out></${element}>\n`
  )
}

const failureType = (failure: Failure): string => (failure.step ? 'StepFailed' : 'TestNotRun')

function failureDetail(failure: Failure, attempt: Attempt): string {
  const failed = attempt.steps.find((step) => !step.ok)
  return [failure.message, ...(failed ? ['', failed.output] : [])].join('\n')
}

/** Every attempt's steps, with their times; a flaky test says so first, a failed one ends with its
 *  screenshot as GitLab takes one (`[[ATTACHMENT|path]]`, the path from where tapir test ran);
 *  an attempt that kept a trace names it, from there too. */
function systemOut(test: TestRecord, reportFolder: string): string {
  const lines: string[] = []
  if (test.status === 'flaky') lines.push(`flaky: passed on attempt ${test.attempts.length} of ${test.attempts.length}`)
  for (const [index, attempt] of test.attempts.entries()) {
    if (test.attempts.length > 1) lines.push(`attempt ${index + 1}: ${attempt.passed ? 'passed' : 'failed'}`)
    lines.push(...stepLines(attempt))
    if (attempt.failure) lines.push(`✗ ${attempt.failure.message}`)
    if (attempt.trace) lines.push(`trace: ${posix.normalize(posix.join(reportFolder, attempt.trace))} (tapir show-trace <it>)`)
  }
  const screenshot = test.status === 'failed' ? shownAttempt(test).evidence?.screenshot : undefined
  if (screenshot) lines.push(`[[ATTACHMENT|${posix.normalize(posix.join(reportFolder, screenshot))}]]`)
  return lines.join('\n')
}

/** An attempt's steps, each with its line, result and time, and its output indented below. */
function stepLines(attempt: Attempt): string[] {
  return attempt.steps.flatMap((step, number) => {
    const where = step.line === undefined ? '' : ` (line ${step.line})`
    const head = `[${number + 1}] ${step.step}${where} ${step.ok ? 'ok' : `failed (exit ${step.exitCode})`} in ${step.durationMs} ms`
    return [head, ...(step.output === '' ? [] : step.output.split('\n').map((part) => `    ${part}`))]
  })
}

const seconds = (ms: number): string => (ms / 1000).toFixed(3)

// XML 1.0 allows tab, newline, carriage return and the characters from U+0020 up; the rest become U+FFFD.
// eslint-disable-next-line no-control-regex -- the characters XML forbids
const NOT_XML = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\ufffe\uffff]/g

function clean(value: string): string {
  const cut = value.length > MAX_TEXT ? `${value.slice(0, MAX_TEXT)}…` : value
  return cut.replace(NOT_XML, '\ufffd').replace(/[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g, '\ufffd')
}

const ENTITIES: Readonly<Record<string, string>> = {'&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;'}

function attr(value: string): string {
  return clean(value)
    .replace(/[&<>"]/g, (c) => ENTITIES[c] ?? c)
    .replace(/[\n\r\t]/g, (c) => `&#${c.charCodeAt(0)};`)
}

function text(value: string): string {
  return clean(value).replace(/[&<>]/g, (c) => ENTITIES[c] ?? c)
}
