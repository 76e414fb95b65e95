import {shownAttempt, totalsOf, type SuiteReport, type TestRecord} from './report.js'

const seconds = (ms: number): string => `${(ms / 1000).toFixed(2)} s`

/** A test's line: its mark, its file and its time; a failure adds its message below. */
export function testLine(test: TestRecord): string {
  const mark = test.status === 'passed' ? '✓' : test.status === 'flaky' ? '~' : '✗'
  const flaky = test.status === 'flaky' ? `, flaky: passed on attempt ${test.attempts.length}` : ''
  const line = `${mark} ${test.file} (${seconds(test.durationMs)}${flaky})`
  const failure = test.status === 'failed' ? shownAttempt(test).failure : undefined
  return failure ? `${line}\n    ${failure.message}` : line
}

/** `3 tests: 1 passed, 2 failed, 0 flaky in 4.20 s`. */
export function summaryLine(report: SuiteReport): string {
  const {total, passed, failed, flaky} = totalsOf(report)
  return `${total} test${total === 1 ? '' : 's'}: ${passed} passed, ${failed} failed, ${flaky} flaky in ${seconds(report.durationMs)}`
}
